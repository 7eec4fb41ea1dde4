import { truthSuite } from "./truth.case.ts";

truthSuite("c");
