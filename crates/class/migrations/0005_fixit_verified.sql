-- Fix-It verified on the class server: the verifier a page sends runs again in a sandbox
-- against the battery. `passed` is 1 only when the server found every attack refused;
-- `let_through` lists, comma-separated, the attacks it let through (with `honest` when the
-- honest flow did not complete), or why the run stopped. A report kept before this column
-- existed was the browser's word only, and counts as not passed.
ALTER TABLE fixit_reports ADD COLUMN passed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE fixit_reports ADD COLUMN let_through TEXT NOT NULL DEFAULT 'not run on the server';
