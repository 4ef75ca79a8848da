-- Schema drift of code tools: a save pins, for each tool in the code tool's uses, the SHA-256 of its input and output
-- schema (canonical JSON) and the schemas themselves, so a later change to a used tool is found and shown as a diff.
-- {"toolName": {"sha256": "...", "inputSchema": {...}, "outputSchema": {...} | null}, ...}; null on HTTP tools.
-- Runs unchanged on PostgreSQL and on H2 in PostgreSQL mode.
alter table mcp_tools add column uses_schema_pins ${json};
