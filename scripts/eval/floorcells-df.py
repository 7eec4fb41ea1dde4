# df.py: for every dev record's defining identifiers, the number of the record's indexed files that contain it as a word (git grep at the instance's commit)
import json,subprocess,sys,os,collections
data={}
for f in ['scripts/eval/sets/data/commits.jsonl','scripts/eval/sets/data/docstrings.jsonl']:
    for l in open(f):
        r=json.loads(l); data[r['id']]=r
cache={}
def gitdir(repo):
    base='/work/.mirror/'+repo.replace('/','+')
    for root,dirs,files in os.walk(base):
        if 'HEAD' in files and 'objects' in dirs: return root
    return base
gd={}
out={}
for path in sys.argv[1].split(','):
    for line in open(path):
        if not line.strip(): continue
        r=json.loads(line)
        if r['id'] in out: continue
        ids=list(r['defining'].keys())
        if not ids: out[r['id']]={}; continue
        inst=data[r['id']]; repo=r['repo']; commit=inst['commit']
        g=gd.setdefault(repo,gitdir(repo))
        files=set(r['files'])
        d={}
        for ident in ids:
            key=(repo,commit,ident)
            if key not in cache:
                p=subprocess.run(['git','--git-dir',g,'grep','-l','-w','-F','-e',ident,commit],capture_output=True,text=True)
                hits=[x.split(':',1)[1] for x in p.stdout.splitlines() if ':' in x]
                cache[key]=hits
            d[ident]=sum(1 for h in cache[key] if h in files)
        out[r['id']]=d
json.dump(out,open(sys.argv[2],'w'))
print(len(out), len(cache))
