/** The reader contract's shared suite against the SQLite reader: the index file the indexer built, opened by path. */
import { openIndexReader } from "../../src/store/open-reader.ts";
import { readerContractSuite } from "./contract-suite.ts";

readerContractSuite("sqlite", async ({ indexPath }) => openIndexReader(indexPath));
