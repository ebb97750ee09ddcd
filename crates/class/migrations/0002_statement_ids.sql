-- Each kept xAPI statement's id (a UUID, also in its body), by which forwarding marks it sent:
-- an LRS that got a statement twice (a retry after a lost answer) keeps it once by this id.
ALTER TABLE statements ADD COLUMN id TEXT;
CREATE INDEX statements_unsent ON statements (forwarded_ms);
