/**
 * A full resolution's import edges, held from its first step (imports → files) until its writes: every
 * site's target files, as typed columns rather than an array per site. The kernel has 320,000 sites
 * with targets; as a Map of arrays they were 650,000 cells that every full collection of the resolution
 * marked again (about a third of its live objects), kept alive for its whole run.
 */
export class SiteTargets {
  /** Each target's file, as a position in `paths`. */
  private targets = new Int32Array(1 << 12);
  private size = 0;
  /** By site id: where its targets start in `targets`, and how many (0: none recorded). */
  private starts: Int32Array;
  private counts: Int32Array;
  /** Site ids in the order they were recorded (the order writes replay them in). */
  private order = new Int32Array(1 << 10);
  private sites = 0;
  private readonly paths: string[] = [];
  private readonly positions = new Map<string, number>();

  /** `maxSiteId`: the largest site id that will be recorded. */
  constructor(maxSiteId: number) {
    this.starts = new Int32Array(maxSiteId + 1);
    this.counts = new Int32Array(maxSiteId + 1);
  }

  /** Records a site's targets (once per site, at least one target); `get` returns these very strings. */
  set(siteId: number, targets: readonly string[]): void {
    if (siteId >= this.starts.length) throw new Error(`import site ${siteId} is past the largest id given (${this.starts.length - 1})`);
    if (this.size + targets.length > this.targets.length) this.targets = grown(this.targets, this.size + targets.length);
    this.starts[siteId] = this.size;
    this.counts[siteId] = targets.length;
    for (const t of targets) {
      let p = this.positions.get(t);
      if (p === undefined) {
        p = this.paths.length;
        this.paths.push(t);
        this.positions.set(t, p);
      }
      this.targets[this.size++] = p;
    }
    if (this.sites === this.order.length) this.order = grown(this.order, this.sites + 1);
    this.order[this.sites++] = siteId;
  }

  /** A site's targets (a new array each call), empty when none were recorded. */
  get(siteId: number): string[] {
    const n = siteId < this.counts.length ? this.counts[siteId]! : 0;
    const out: string[] = new Array(n);
    const start = n > 0 ? this.starts[siteId]! : 0;
    for (let i = 0; i < n; i++) out[i] = this.paths[this.targets[start + i]!]!;
    return out;
  }

  /**
   * Every edge as two columns, in the order forEach gives them: `sites[i]` reaches `paths[targets[i]]`
   * (ResolutionWrite "edges"; `paths` holds each target once).
   */
  flat(): { sites: Int32Array; targets: Int32Array; paths: string[] } {
    let n = 0;
    for (let i = 0; i < this.sites; i++) n += this.counts[this.order[i]!]!;
    const sites = new Int32Array(n);
    const targets = new Int32Array(n);
    let at = 0;
    for (let i = 0; i < this.sites; i++) {
      const site = this.order[i]!;
      const start = this.starts[site]!;
      for (let k = 0; k < this.counts[site]!; k++) {
        sites[at] = site;
        targets[at++] = this.targets[start + k]!;
      }
    }
    return { sites, targets, paths: this.paths };
  }

  /** Every recorded site with its targets, in the order they were recorded. */
  forEach(fn: (targets: string[], siteId: number) => void): void {
    for (let i = 0; i < this.sites; i++) fn(this.get(this.order[i]!), this.order[i]!);
  }
}

/** A copy of `a` at least `need` long (doubling). */
function grown(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
