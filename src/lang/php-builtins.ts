/**
 * PHP's own classes, interfaces and enums (PHP 8.3: the core, SPL, Reflection, Date and the extensions a
 * usual build bundles: PDO, DOM, SimpleXML, XML, intl, cURL, mysqli, SQLite3, Zip, Phar, SOAP, GMP…), lower
 * case because PHP class names are case-insensitive; and the namespaces PHP itself declares. A `use` of one
 * of these is a standard-library import.
 */

export const PHP_BUILTIN_CLASSES: ReadonlySet<string> = new Set(
  [
    // core
    "stdClass", "Closure", "Generator", "WeakReference", "WeakMap", "Fiber", "Stringable", "Traversable", "Iterator",
    "IteratorAggregate", "ArrayAccess", "Countable", "Serializable", "UnitEnum", "BackedEnum", "Attribute",
    "ReturnTypeWillChange", "AllowDynamicProperties", "SensitiveParameter", "SensitiveParameterValue", "Override",
    "InternalIterator", "__PHP_Incomplete_Class", "php_user_filter", "Directory", "ClosedGeneratorException",
    "Throwable", "Exception", "ErrorException", "Error", "CompileError", "ParseError", "TypeError", "ArgumentCountError",
    "ValueError", "ArithmeticError", "DivisionByZeroError", "UnhandledMatchError", "FiberError", "AssertionError",
    "JsonSerializable", "JsonException",
    // SPL
    "ArrayObject", "ArrayIterator", "RecursiveArrayIterator", "AppendIterator", "CachingIterator", "CallbackFilterIterator",
    "DirectoryIterator", "EmptyIterator", "FilesystemIterator", "FilterIterator", "GlobIterator", "InfiniteIterator",
    "IteratorIterator", "LimitIterator", "MultipleIterator", "NoRewindIterator", "ParentIterator",
    "RecursiveCachingIterator", "RecursiveCallbackFilterIterator", "RecursiveDirectoryIterator", "RecursiveFilterIterator",
    "RecursiveIteratorIterator", "RecursiveRegexIterator", "RecursiveTreeIterator", "RegexIterator", "OuterIterator",
    "RecursiveIterator", "SeekableIterator", "SplObserver", "SplSubject", "SplDoublyLinkedList", "SplQueue", "SplStack",
    "SplHeap", "SplMinHeap", "SplMaxHeap", "SplPriorityQueue", "SplFixedArray", "SplObjectStorage", "SplFileInfo",
    "SplFileObject", "SplTempFileObject", "LogicException", "BadFunctionCallException", "BadMethodCallException",
    "DomainException", "InvalidArgumentException", "LengthException", "OutOfRangeException", "RuntimeException",
    "OutOfBoundsException", "OverflowException", "RangeException", "UnderflowException", "UnexpectedValueException",
    // Reflection
    "Reflection", "Reflector", "ReflectionException", "ReflectionClass", "ReflectionObject", "ReflectionMethod",
    "ReflectionFunction", "ReflectionFunctionAbstract", "ReflectionParameter", "ReflectionProperty", "ReflectionType",
    "ReflectionNamedType", "ReflectionUnionType", "ReflectionIntersectionType", "ReflectionClassConstant",
    "ReflectionAttribute", "ReflectionEnum", "ReflectionEnumUnitCase", "ReflectionEnumBackedCase", "ReflectionExtension",
    "ReflectionZendExtension", "ReflectionGenerator", "ReflectionFiber", "ReflectionReference",
    // Date
    "DateTime", "DateTimeImmutable", "DateTimeInterface", "DateTimeZone", "DateInterval", "DatePeriod", "DateError",
    "DateObjectError", "DateRangeError", "DateException", "DateInvalidTimeZoneException", "DateInvalidOperationException",
    "DateMalformedStringException", "DateMalformedIntervalStringException", "DateMalformedPeriodStringException",
    // extensions
    "PDO", "PDOStatement", "PDOException", "PDORow", "DOMDocument", "DOMElement", "DOMNode", "DOMNodeList", "DOMXPath",
    "DOMAttr", "DOMText", "DOMComment", "DOMDocumentFragment", "DOMImplementation", "DOMNamedNodeMap", "DOMException",
    "DOMCharacterData", "DOMCdataSection", "DOMProcessingInstruction", "DOMEntityReference", "DOMParentNode",
    "DOMChildNode", "SimpleXMLElement", "SimpleXMLIterator", "XMLReader", "XMLWriter", "XSLTProcessor", "LibXMLError",
    "IntlDateFormatter", "NumberFormatter", "Collator", "Locale", "Normalizer", "MessageFormatter", "Transliterator",
    "IntlChar", "IntlException", "IntlCalendar", "IntlGregorianCalendar", "IntlTimeZone", "IntlBreakIterator",
    "ResourceBundle", "Spoofchecker", "UConverter", "CURLFile", "CURLStringFile", "CurlHandle", "CurlMultiHandle",
    "CurlShareHandle", "mysqli", "mysqli_result", "mysqli_stmt", "mysqli_driver", "mysqli_warning",
    "mysqli_sql_exception", "SQLite3", "SQLite3Stmt", "SQLite3Result", "SQLite3Exception", "ZipArchive", "Phar",
    "PharData", "PharFileInfo", "PharException", "finfo", "SessionHandler", "SessionHandlerInterface",
    "SessionIdInterface", "SessionUpdateTimestampHandlerInterface", "SoapClient", "SoapServer", "SoapFault", "SoapHeader",
    "SoapParam", "SoapVar", "GMP", "GdImage", "GdFont", "HashContext", "OpenSSLCertificate", "OpenSSLAsymmetricKey",
    "OpenSSLCertificateSigningRequest", "Socket", "AddressInfo", "FFI", "XMLParser", "DeflateContext",
    "InflateContext", "SodiumException", "Shmop", "SysvMessageQueue", "SysvSemaphore", "SysvSharedMemory",
  ].map((n) => n.toLowerCase()),
);

/** Namespaces PHP itself declares (PHP 8.2's Random, 8.4's Dom, FFI's, ext/pgsql's). */
export const PHP_BUILTIN_NAMESPACES: ReadonlySet<string> = new Set(["random", "dom", "ffi", "pgsql"]);
