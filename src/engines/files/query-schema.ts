/**
 * The JSON query language of cortex_files (see docs/tools.md and the cortex_files specification):
 * fields, from, where, joins, groupBy, having, orderBy, limit, offset, aggregations.
 */
import { z } from "zod";

export const COMPARISON_OPERATORS = ["=", "!=", ">", ">=", "<", "<=", "LIKE", "NOT LIKE", "IN", "NOT IN", "IS NULL", "IS NOT NULL", "BETWEEN"] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export interface FieldFilter {
  field: string;
  operator: ComparisonOperator;
  value?: unknown;
}
export type Filter = FieldFilter | { and: Filter[] } | { or: Filter[] } | { not: Filter };

export const filterSchema: z.ZodType<Filter> = z.lazy(() =>
  z.union([
    z
      .object({
        field: z.string().min(1).describe("Column name, optionally qualified: lines_total or files.lines_total"),
        operator: z.enum(COMPARISON_OPERATORS).describe("Comparison operator"),
        value: z
          .union([scalar, z.array(scalar)])
          .optional()
          .describe("Value (an array for IN / NOT IN / BETWEEN; none for IS NULL)"),
      })
      .strict(),
    z.object({ and: z.array(filterSchema).min(1) }).strict(),
    z.object({ or: z.array(filterSchema).min(1) }).strict(),
    z.object({ not: filterSchema }).strict(),
  ]),
) as z.ZodType<Filter>;

export const aggregationSchema = z
  .object({
    function: z.enum(["COUNT", "SUM", "AVG", "MIN", "MAX"]).describe("Aggregate function"),
    field: z.string().min(1).optional().describe("Column to aggregate (omit for COUNT(*))"),
    alias: z.string().min(1).describe("Name of the result column"),
    distinct: z.boolean().optional().describe("Aggregate distinct values only"),
  })
  .strict();

export const joinSchema = z
  .object({
    table: z.string().min(1).describe("Table to join"),
    type: z.enum(["INNER", "LEFT", "RIGHT", "FULL"]).default("INNER").describe("Join type"),
    on: filterSchema.describe("Join condition; a value naming a qualified column (types.file_path) compares columns"),
  })
  .strict();

export const orderBySchema = z
  .object({
    field: z.string().min(1).describe("Column or aggregation alias"),
    direction: z
      .string()
      .transform((d) => d.toUpperCase())
      .pipe(z.enum(["ASC", "DESC"]))
      .default("ASC")
      .describe("ASC or DESC"),
  })
  .strict();

export const queryDefinitionSchema = z
  .object({
    fields: z.array(z.string().min(1)).optional().describe("Columns to return (default: all columns of `from`)"),
    from: z.string().min(1).describe("Table: files, types, functions, imports or modules"),
    where: filterSchema.optional().describe("Row filter"),
    joins: z.array(joinSchema).max(4).optional().describe("Joins with other tables"),
    groupBy: z.array(z.string().min(1)).optional().describe("Columns to group by"),
    having: filterSchema.optional().describe("Filter on groups (may use aggregation aliases)"),
    orderBy: z.array(orderBySchema).optional().describe("Sort order"),
    limit: z.number().int().min(1).max(1000).default(100).describe("Maximum rows (1-1000, default 100)"),
    offset: z.number().int().min(0).optional().describe("Rows to skip"),
    aggregations: z.array(aggregationSchema).optional().describe("COUNT / SUM / AVG / MIN / MAX columns"),
  })
  .strict();

export type QueryDefinition = z.infer<typeof queryDefinitionSchema>;
export type QueryDefinitionInput = z.input<typeof queryDefinitionSchema>;
