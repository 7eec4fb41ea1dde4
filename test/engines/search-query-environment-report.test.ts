/**
 * A pasted issue often ends with the environment report its template asks for (`xr.show_versions()`,
 * sklearn's `show_versions()`): dozens of `key: version` lines that describe the reporter's machine. Their
 * words are the ones the project's own report code holds, so they must not be read as the question: the
 * report goes, the question's own lines, a few `key: value` lines, tracebacks and logs stay.
 */
import { expect, test } from "bun:test";
import { analyzeQuery, environmentReportLines, withoutEnvironmentReport } from "../../src/engines/search/query.ts";
import { findTool } from "../../src/tools/index.ts";
import { invokeTool } from "../../src/tools/invoke.ts";
import { indexedForSearch, withUnrelatedPackages } from "../helpers/search-project.ts";

const XARRAY_REPORT = `INSTALLED VERSIONS
------------------
commit: None
python: 3.8.5 | packaged by conda-forge | (default, Jul 31 2020, 02:39:48)
[GCC 7.5.0]
python-bits: 64
OS: Linux
OS-release: 5.4.0-42-generic
machine: x86_64
processor: x86_64
byteorder: little
LC_ALL: None
LANG: en_US.UTF-8
libhdf5: 1.10.6
libnetcdf: 4.7.4

xarray: 0.16.0
pandas: 1.1.0
numpy: 1.19.1
scipy: 1.5.2
netCDF4: 1.5.4
dask: 2.22.0`;

const SKLEARN_REPORT = `System:
    python: 3.7.3 (default, Apr 24 2019, 15:29:51) [MSC v.1915 64 bit (AMD64)]
executable: C:\\Users\\someone\\Anaconda3\\python.exe
   machine: Windows-10-10.0.17763-SP0

BLAS:
    macros: NO_ATLAS_INFO=3, HAVE_CBLAS=None
  lib_dirs:
cblas_libs: cblas

Python deps:
       pip: 19.1
setuptools: 41.0.0
   sklearn: 0.21.1
     numpy: 1.16.2
     scipy: 1.2.1
    Cython: 0.29.7
    pandas: 0.24.2`;

const ISSUE = `xr.where not preserving attributes
The output of xr.where drops the attributes of the input DataArray, even with keep_attrs=True.

#### Output of xr.show_versions()
`;

test("an xarray or sklearn versions report goes, the question's lines stay", () => {
  expect(withoutEnvironmentReport(`${ISSUE}${XARRAY_REPORT}\n`)).toBe(
    "xr.where not preserving attributes\nThe output of xr.where drops the attributes of the input DataArray, even with keep_attrs=True.\n",
  );
  const sklearn = `StratifiedKFold shuffles within strata only\nThe docs say it shuffles the samples.\n\n#### Versions\n${SKLEARN_REPORT}\n\nThanks!`;
  expect(withoutEnvironmentReport(sklearn)).toBe("StratifiedKFold shuffles within strata only\nThe docs say it shuffles the samples.\n\nThanks!");
  const q = analyzeQuery(`${ISSUE}${XARRAY_REPORT}`);
  expect(q.raw).toBe(`${ISSUE}${XARRAY_REPORT}`);
  for (const word of ["byteorder", "processor", "libnetcdf", "numpy", "dask"]) expect(q.terms).not.toContain(word);
  for (const word of ["where", "preserving", "attributes", "keep_attrs"]) expect(q.terms).toContain(word);
});

test("a few key: value lines, settings without versions, tracebacks and logs are part of the question", () => {
  const unchanged = [
    "Wrong default\nDjango: 4.0.3\nPython: 3.9.6\nsqlite: 3.35.5\nThe field keeps its old default.",
    "Config is ignored\nname: build\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps: checkout\n    env: production\n    shell: bash\nThe job never starts.",
    'Crash on save\nTraceback (most recent call last):\n  File "models.py", line 3, in save\nValueError: invalid literal for int() with base 10: abc\nERROR: 1 test failed\nINFO: retrying now\nWARNING: 2 of 3 failed',
  ];
  for (const text of unchanged) {
    expect(withoutEnvironmentReport(text)).toBe(text);
    expect(environmentReportLines(text)).toBe(0);
  }
});

test("environmentReportLines counts what withoutEnvironmentReport leaves out", () => {
  const text = `${ISSUE}${XARRAY_REPORT}\n`;
  expect(environmentReportLines(text)).toBe(text.split("\n").length - withoutEnvironmentReport(text).split("\n").length);
  expect(environmentReportLines(text)).toBeGreaterThan(20);
});

// the project's own report code holds the report's words; the issue's function is elsewhere
const files: Record<string, string> = withUnrelatedPackages({
  "xarray/util/print_versions.py": `"""Utility functions for printing version information."""
import platform
import sys


def get_sys_info():
    """Returns system information as a dict: commit, python, python-bits, OS, OS-release, machine, processor, byteorder, LC_ALL, LANG."""
    (sysname, nodename, release, version, machine, processor) = platform.uname()
    return [("commit", None), ("python", sys.version), ("python-bits", 64), ("OS", sysname), ("OS-release", release),
            ("machine", machine), ("processor", processor), ("byteorder", sys.byteorder), ("LC_ALL", None), ("LANG", None)]


def netcdf_and_hdf5_versions():
    libhdf5_version = None
    libnetcdf_version = None
    return [("libhdf5", libhdf5_version), ("libnetcdf", libnetcdf_version)]


def show_versions(file=sys.stdout):
    """Print the versions of xarray and its dependencies: pandas, numpy, scipy, netCDF4, dask."""
    deps = [("xarray", None), ("pandas", None), ("numpy", None), ("scipy", None), ("netCDF4", None), ("dask", None)]
    print("INSTALLED VERSIONS", file=file)
    for k, stat in get_sys_info() + netcdf_and_hdf5_versions() + deps:
        print(f"{k}: {stat}", file=file)
`,
  "xarray/core/computation.py": `"""Functions for applying functions that act on arrays to xarray's labelled data."""


def where(cond, x, y, keep_attrs=None):
    """Return elements from x or y depending on cond; the attributes follow keep_attrs."""
    return apply_ufunc(cond, x, y, keep_attrs=keep_attrs)


def apply_ufunc(func, *args, keep_attrs=None):
    return func(*args)
`,
});

const project = indexedForSearch(files);

test("a pasted issue with a versions report is ranked by its question, not by the report", async () => {
  const ranked = await project.engine.searchFiles(`${ISSUE}${XARRAY_REPORT}`, 5, { mode: "keyword" });
  expect(ranked[0]!.filePath).toBe("xarray/core/computation.py");
});

test("cortex_search and search_codebase say that the report was not read; a question without one carries no note", async () => {
  const context = () => ({ session: project.session, signal: new AbortController().signal, deadline: Date.now() + 30_000 });
  const lines = environmentReportLines(`${ISSUE}${XARRAY_REPORT}`);
  const search = (await invokeTool(findTool("cortex_search")!, { query: `${ISSUE}${XARRAY_REPORT}`, mode: "keyword", one_per_file: true }, context())) as {
    results: Array<{ chunk: { metadata: { file_path: string } } }>;
    query_unread?: string;
  };
  expect(search.results[0]!.chunk.metadata.file_path).toBe("xarray/core/computation.py");
  expect(search.query_unread).toContain(`environment report (${lines} lines`);
  const card = (await invokeTool(findTool("search_codebase")!, { query: `${ISSUE}${XARRAY_REPORT}`, limit: 3 }, context())) as { query_unread?: string };
  expect(card.query_unread).toContain(`environment report (${lines} lines`);
  const plain = (await invokeTool(findTool("cortex_search")!, { query: "xr.where keep_attrs", mode: "keyword" }, context())) as Record<string, unknown>;
  expect("query_unread" in plain).toBe(false);
});
