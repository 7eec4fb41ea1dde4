# df2.py: per repository, for every name part of every indexed file's name, how many indexed files hold it as a word (case-insensitive), at one commit per repository
import json,subprocess,sys,os,re,collections
data={}
for f in ['scripts/eval/sets/data/commits.jsonl','scripts/eval/sets/data/docstrings.jsonl']:
    for l in open(f):
        r=json.loads(l); data[r['id']]=r
FOLDER={"index","mod","__init__","lib","main","init","package-info","default"}
def fileName(p):
    parts=p.split('/'); base=parts[-1]; dot=base.find('.',1); name=base[:dot] if dot>0 else base
    return parts[-2] if name.lower() in FOLDER and len(parts)>1 else name
CAMEL=re.compile(r'[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+')
def parts(name):
    out=[]
    for piece in re.split(r'[_\-.]',name):
        out+= [c.lower() for c in CAMEL.findall(piece)]
    return [p for p in out if len(p)>=2]
def gitdir(repo):
    base='/work/.mirror/'+repo.replace('/','+')
    for root,dirs,files in os.walk(base):
        if 'HEAD' in files and 'objects' in dirs: return root
repos={}
for path in sys.argv[1].split(','):
    for line in open(path):
        if not line.strip(): continue
        r=json.loads(line)
        e=repos.setdefault(r['repo'],{'commit':data[r['id']]['commit'],'files':set()})
        e['files'].update(r['files'])
out={}
for repo,e in repos.items():
    g=gitdir(repo); words=set()
    for p in e['files']: words.update(parts(fileName(p)))
    d={}
    for w in words:
        pr=subprocess.run(['git','--git-dir',g,'grep','-l','-i','-w','-F','-e',w,e['commit']],capture_output=True,text=True)
        d[w]=sum(1 for x in pr.stdout.splitlines() if x.split(':',1)[1] in e['files'])
    out[repo]={'n':len(e['files']),'df':d}
    print(repo,len(words),file=sys.stderr)
json.dump(out,open(sys.argv[2],'w'))
