/**
 * What `require` reaches without a Gemfile entry: Ruby 3.3's standard library, default gems and bundled
 * gems (they ship with the interpreter), as the first segment of the required path (`net` covers
 * net/http, `io` covers io/console). A required path whose first segment is not here is a gem.
 */

export const RUBY_STDLIB: ReadonlySet<string> = new Set([
  // standard library and default gems
  "English", "abbrev", "base64", "benchmark", "bigdecimal", "bundler", "cgi", "continuation", "coverage", "csv", "date",
  "delegate", "did_you_mean", "digest", "drb", "enumerator", "erb", "error_highlight", "etc", "expect", "fcntl", "fiber",
  "fiddle", "fileutils", "find", "forwardable", "getoptlong", "io", "ipaddr", "irb", "json", "kconv", "logger", "mkmf",
  "monitor", "mutex_m", "net", "nkf", "objspace", "observer", "open-uri", "open3", "openssl", "optionparser", "optparse",
  "ostruct", "pathname", "pp", "prettyprint", "prism", "pstore", "psych", "pty", "racc", "random", "rational", "rbconfig",
  "rdoc", "readline", "reline", "resolv", "resolv-replace", "rinda", "ripper", "ruby2_keywords", "rubygems",
  "securerandom", "set", "shellwords", "singleton", "socket", "stringio", "strscan", "syntax_suggest", "syslog",
  "tempfile", "thread", "time", "timeout", "tmpdir", "tsort", "un", "unicode_normalize", "uri", "weakref", "win32",
  "win32ole", "yaml", "zlib", "complex",
  // bundled gems
  "debug", "matrix", "minitest", "power_assert", "prime", "rake", "rbs", "repl_type_completor", "rexml", "rss", "test",
  "typeprof",
]);
