-- The quick check as the class server graded it, and Fix-It as the student's browser reported
-- it (the verifier runs there; its code is kept for the instructor to read). One row per seat
-- and generation: a later answer replaces the earlier one.
CREATE TABLE quiz_grades (
    seat TEXT NOT NULL,
    generation BIGINT NOT NULL,
    answers TEXT NOT NULL,
    score BIGINT NOT NULL,
    max BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (seat, generation)
);

CREATE TABLE fixit_reports (
    seat TEXT NOT NULL,
    generation BIGINT NOT NULL,
    code TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (seat, generation)
);
