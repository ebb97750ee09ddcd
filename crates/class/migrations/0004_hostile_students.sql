-- A class holds against its own students.
-- Seats belong to a generation: a room reset empties the room, and the archive keeps the old
-- seats. Seats already taken belong to their class's current generation.
ALTER TABLE seats ADD COLUMN generation BIGINT NOT NULL DEFAULT 1;
UPDATE seats SET generation = COALESCE((SELECT c.generation FROM classes c WHERE c.code = seats.class_code), 1);
CREATE INDEX seats_by_generation ON seats (class_code, generation);
-- The seats taken in the current generation, counted in the class's own row: a join takes
-- one with a single conditional UPDATE, so concurrent joins never overshoot the cap.
ALTER TABLE classes ADD COLUMN seats_taken BIGINT NOT NULL DEFAULT 0;
UPDATE classes SET seats_taken =
    (SELECT COUNT(*) FROM seats s WHERE s.class_code = classes.code AND s.generation = classes.generation);
-- The instructor's token is kept as its SHA-256 only (the class server hashes a token kept
-- in plain text by an earlier version at its next start, and blanks it).
ALTER TABLE classes ADD COLUMN instructor_sha256 TEXT NOT NULL DEFAULT '';
-- A statement the LRS refused on its own (its batch split until it was found): parked with
-- the LRS's answer, shown to the instructor, never sent again.
ALTER TABLE statements ADD COLUMN parked TEXT;
