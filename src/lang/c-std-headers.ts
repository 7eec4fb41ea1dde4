/**
 * The standard headers of C and C++, so `#include <x>` can be told apart from a third-party library.
 * C: every ISO C header (C89 to C23) plus the POSIX.1-2017 headers, because on every system cortex runs
 * on those ship with the C library itself, not as a dependency. C++: the ISO C++ headers (C++98 to
 * C++26, including the <cname> wrappers); a C++ file may include any C header too.
 */

const ISO_C = [
  "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h", "limits.h",
  "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdatomic.h", "stdbit.h", "stdbool.h",
  "stdckdint.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h", "string.h", "tgmath.h",
  "threads.h", "time.h", "uchar.h", "wchar.h", "wctype.h",
];

const POSIX = [
  "aio.h", "arpa/inet.h", "cpio.h", "dirent.h", "dlfcn.h", "fcntl.h", "fmtmsg.h", "fnmatch.h", "ftw.h", "glob.h",
  "grp.h", "iconv.h", "langinfo.h", "libgen.h", "monetary.h", "mqueue.h", "ndbm.h", "net/if.h", "netdb.h",
  "netinet/in.h", "netinet/tcp.h", "nl_types.h", "poll.h", "pthread.h", "pwd.h", "regex.h", "sched.h", "search.h",
  "semaphore.h", "spawn.h", "strings.h", "stropts.h", "sys/ipc.h", "sys/mman.h", "sys/msg.h", "sys/resource.h",
  "sys/select.h", "sys/sem.h", "sys/shm.h", "sys/socket.h", "sys/stat.h", "sys/statvfs.h", "sys/time.h",
  "sys/times.h", "sys/types.h", "sys/uio.h", "sys/un.h", "sys/utsname.h", "sys/wait.h", "syslog.h", "tar.h",
  "termios.h", "trace.h", "ulimit.h", "unistd.h", "utime.h", "utmpx.h", "wordexp.h",
];

const ISO_CPP = [
  "algorithm", "any", "array", "atomic", "barrier", "bit", "bitset", "cassert", "ccomplex", "cctype", "cerrno",
  "cfenv", "cfloat", "charconv", "chrono", "cinttypes", "ciso646", "climits", "clocale", "cmath", "codecvt",
  "compare", "complex", "concepts", "condition_variable", "contracts", "coroutine", "csetjmp", "csignal",
  "cstdalign", "cstdarg", "cstdbool", "cstddef", "cstdint", "cstdio", "cstdlib", "cstring", "ctgmath", "ctime",
  "cuchar", "cwchar", "cwctype", "debugging", "deque", "exception", "execution", "expected", "filesystem",
  "flat_map", "flat_set", "format", "forward_list", "fstream", "functional", "future", "generator",
  "hazard_pointer", "hive", "initializer_list", "inplace_vector", "iomanip", "ios", "iosfwd", "iostream",
  "istream", "iterator", "latch", "limits", "linalg", "list", "locale", "map", "mdspan", "memory",
  "memory_resource", "mutex", "new", "numbers", "numeric", "optional", "ostream", "print", "queue", "random",
  "ranges", "ratio", "rcu", "regex", "scoped_allocator", "semaphore", "set", "shared_mutex", "simd",
  "source_location", "span", "spanstream", "sstream", "stack", "stacktrace", "stdexcept", "stdfloat",
  "stop_token", "streambuf", "string", "string_view", "strstream", "syncstream", "system_error",
  "text_encoding", "thread", "tuple", "type_traits", "typeindex", "typeinfo", "unordered_map", "unordered_set",
  "utility", "valarray", "variant", "vector", "version",
];

export const C_STANDARD_HEADERS: ReadonlySet<string> = new Set([...ISO_C, ...POSIX]);
export const CPP_STANDARD_HEADERS: ReadonlySet<string> = new Set([...ISO_CPP, ...ISO_C, ...POSIX]);
