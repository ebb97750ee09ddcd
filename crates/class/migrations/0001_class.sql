-- The class server's records (`mrtr class serve`), portable between SQLite and PostgreSQL.
-- A room reset starts a new generation: rows of older generations are the archive.

CREATE TABLE classes (
    code TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    instructor_token TEXT NOT NULL,
    generation BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);

CREATE TABLE seats (
    id TEXT PRIMARY KEY,
    class_code TEXT NOT NULL,
    name TEXT NOT NULL,
    secret_sha256 TEXT NOT NULL,
    joined_ms BIGINT NOT NULL
);
CREATE INDEX seats_by_class ON seats (class_code);

CREATE TABLE completions (
    seat TEXT NOT NULL,
    generation BIGINT NOT NULL,
    challenge TEXT NOT NULL,
    situation TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (seat, generation, challenge)
);

CREATE TABLE refusals (
    seat TEXT NOT NULL,
    generation BIGINT NOT NULL,
    challenge TEXT NOT NULL,
    reason TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);

CREATE TABLE statements (
    seat TEXT NOT NULL,
    generation BIGINT NOT NULL,
    body TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    forwarded_ms BIGINT
);
