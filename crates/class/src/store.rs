//! The class's records in a database: SQLite in a file by default, PostgreSQL for a class that
//! outgrows one machine (`--db postgres://…`), one code path through sqlx's Any driver, the
//! migrations in `crates/class/migrations` run at every start. A room reset starts a new
//! generation: progress of older generations stays as the archive.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

/// One student's seat.
#[derive(Debug, Clone, PartialEq)]
pub struct Seat {
    /// Its id.
    pub id: String,
    /// The name the student gave.
    pub name: String,
    /// When they joined, ms since the epoch.
    pub joined_ms: i64,
}

/// One met challenge.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// The seat.
    pub seat: String,
    /// The challenge's id.
    pub challenge: String,
    /// The situation that met it.
    pub situation: String,
    /// When, ms since the epoch.
    pub at_ms: i64,
}

/// A quick check the class server graded.
#[derive(Debug, Clone, PartialEq)]
pub struct QuizGrade {
    /// The seat.
    pub seat: String,
    /// Right answers.
    pub score: i64,
    /// Questions.
    pub max: i64,
    /// When the last answer came, ms since the epoch.
    pub at_ms: i64,
}

/// A Fix-It verifier a seat sent, as the class server found it when it ran it ([`crate::fixit`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FixItReport {
    /// The seat.
    pub seat: String,
    /// The verifier the student wrote.
    pub code: String,
    /// When, ms since the epoch.
    pub at_ms: i64,
    /// Whether the server found every attack refused and the honest flow completed.
    pub passed: bool,
    /// What it let through (attack ids, `honest` when the honest flow failed), or why the run
    /// stopped; empty when it passed.
    pub let_through: String,
}

/// Everything a class did in one generation: what the instructor's table and the CSV show.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Progress {
    /// Every seat, in the order they joined.
    pub seats: Vec<Seat>,
    /// The challenges met, oldest first.
    pub done: Vec<Completion>,
    /// The quick checks graded.
    pub quiz: Vec<QuizGrade>,
    /// The Fix-It verifiers sent, each seat's latest, as the server ran them.
    pub fixit: Vec<FixItReport>,
}

/// A class as the database holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassRow {
    /// Its code.
    pub code: String,
    /// Its settings, as a lesson's meta element writes them (`hide=hints&scenarios=voucher`).
    pub settings: String,
    /// The SHA-256 of the instructor's token, in hex (the token itself is kept nowhere).
    pub instructor_sha256: String,
    /// The current generation (one more at each room reset).
    pub generation: i64,
}

/// The database.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
}

/// Why the class database did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or did not answer.
    #[error("the class database: {0}")]
    Database(#[from] sqlx::Error),
    /// Its migrations did not run.
    #[error("the class database's migrations: {0}")]
    Migrations(#[from] sqlx::migrate::MigrateError),
    /// A row written was not there when read back.
    #[error("the class database did not keep the class")]
    NotKept,
}

/// A statement that writes and returns nothing, run on the store's pool.
trait Run {
    async fn run(self, store: &Store) -> Result<(), StoreError>;
}

impl<'q> Run for sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    async fn run(self, store: &Store) -> Result<(), StoreError> {
        self.execute(&store.pool).await?;
        Ok(())
    }
}

impl Store {
    /// Opens the database at `url` (`sqlite://class.db`, `postgres://…`), creating a SQLite
    /// file that does not exist, and runs the migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let url =
            if url.starts_with("sqlite:") && !url.contains('?') { format!("{url}?mode=rwc") } else { url.to_owned() };
        // SQLite takes one writer at a time: one connection, so that writes queue here
        // rather than fail as busy.
        let connections = if url.starts_with("sqlite:") { 1 } else { 8 };
        let pool = AnyPoolOptions::new().max_connections(connections).connect(&url).await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Store { pool })
    }

    /// The class with `code`, and whether this call made it (with `settings` and the
    /// instructor token whose SHA-256 is `token_sha256`). A class an earlier version kept with
    /// its token in plain text keeps only the token's hash from now on.
    pub async fn class(
        &self,
        code: &str,
        settings: &str,
        token_sha256: &str,
        now_ms: i64,
    ) -> Result<(ClassRow, bool), StoreError> {
        let plain: Option<String> = sqlx::query("SELECT instructor_token FROM classes WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?
            .map(|r| r.try_get(0))
            .transpose()?;
        match plain {
            Some(plain) if !plain.is_empty() => {
                sqlx::query("UPDATE classes SET instructor_sha256 = $1, instructor_token = '' WHERE code = $2")
                    .bind(crate::secret::sha256(&plain))
                    .bind(code)
                    .run(self)
                    .await?;
            }
            Some(_) => {}
            None => {
                sqlx::query(
                    "INSERT INTO classes (code, settings, instructor_token, instructor_sha256, generation, created_ms) \
                     VALUES ($1, $2, '', $3, 1, $4)",
                )
                .bind(code)
                .bind(settings)
                .bind(token_sha256)
                .bind(now_ms)
                .run(self)
                .await?;
                let made = self.find_class(code).await?.ok_or(StoreError::NotKept)?;
                return Ok((made, true));
            }
        }
        Ok((self.find_class(code).await?.ok_or(StoreError::NotKept)?, false))
    }

    /// Replaces the instructor's token: only the new one's hash, `token_sha256`, is kept.
    /// False when no class has `code`.
    pub async fn rotate_token(&self, code: &str, token_sha256: &str) -> Result<bool, StoreError> {
        let changed = sqlx::query("UPDATE classes SET instructor_sha256 = $1, instructor_token = '' WHERE code = $2")
            .bind(token_sha256)
            .bind(code)
            .execute(&self.pool)
            .await?;
        Ok(changed.rows_affected() == 1)
    }

    /// The class with `code`, if there is one.
    pub async fn find_class(&self, code: &str) -> Result<Option<ClassRow>, StoreError> {
        let row = sqlx::query("SELECT code, settings, instructor_sha256, generation FROM classes WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(ClassRow {
                code: r.try_get(0)?,
                settings: r.try_get(1)?,
                instructor_sha256: r.try_get(2)?,
                generation: r.try_get(3)?,
            })
        })
        .transpose()
    }

    /// Changes the class's settings.
    pub async fn set_settings(&self, code: &str, settings: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE classes SET settings = $1 WHERE code = $2").bind(settings).bind(code).run(self).await
    }

    /// Starts a new generation, with an empty room: the seats and progress so far become the
    /// archive. Returns the new one.
    pub async fn reset(&self, code: &str) -> Result<i64, StoreError> {
        sqlx::query("UPDATE classes SET generation = generation + 1, seats_taken = 0 WHERE code = $1")
            .bind(code)
            .execute(&self.pool)
            .await?;
        Ok(self.find_class(code).await?.map(|c| c.generation).unwrap_or(1))
    }

    /// Seats a student in the class's current generation, unless it already has `most` seats
    /// there: false then. The seat is counted in the class's row by one conditional UPDATE
    /// (atomic in SQLite and PostgreSQL alike), so concurrent joins never overshoot.
    pub async fn join(&self, code: &str, seat: &Seat, secret_sha256: &str, most: i64) -> Result<bool, StoreError> {
        let taken =
            sqlx::query("UPDATE classes SET seats_taken = seats_taken + 1 WHERE code = $1 AND seats_taken < $2")
                .bind(code)
                .bind(most)
                .execute(&self.pool)
                .await?;
        if taken.rows_affected() == 0 {
            return Ok(false);
        }
        let inserted = sqlx::query(
            "INSERT INTO seats (id, class_code, name, secret_sha256, joined_ms, generation) \
             SELECT $1, $2, $3, $4, $5, generation FROM classes WHERE code = $2",
        )
        .bind(&seat.id)
        .bind(code)
        .bind(&seat.name)
        .bind(secret_sha256)
        .bind(seat.joined_ms)
        .run(self)
        .await;
        if let Err(why) = inserted {
            // The seat counted above was not taken after all.
            sqlx::query("UPDATE classes SET seats_taken = seats_taken - 1 WHERE code = $1")
                .bind(code)
                .run(self)
                .await?;
            return Err(why);
        }
        Ok(true)
    }

    /// Removes a seat of the current generation (its secret holds nothing from now on), and
    /// frees its place. False when the class's current room has no such seat.
    pub async fn remove_seat(&self, code: &str, seat: &str) -> Result<bool, StoreError> {
        let removed = sqlx::query(
            "DELETE FROM seats WHERE id = $1 AND class_code = $2 \
             AND generation = (SELECT generation FROM classes WHERE code = $2)",
        )
        .bind(seat)
        .bind(code)
        .execute(&self.pool)
        .await?;
        if removed.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query("UPDATE classes SET seats_taken = seats_taken - 1 WHERE code = $1 AND seats_taken > 0")
            .bind(code)
            .run(self)
            .await?;
        Ok(true)
    }

    /// How many seats the class's current room has.
    pub async fn seat_count(&self, code: &str) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT seats_taken FROM classes WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get::<i64, _>(0)).transpose()?.unwrap_or(0))
    }

    /// The seat whose secret digests to `secret_sha256`, in the current room of class `code`
    /// (a seat of an earlier generation holds nothing).
    pub async fn seat_by_secret(&self, code: &str, secret_sha256: &str) -> Result<Option<Seat>, StoreError> {
        let row = sqlx::query(
            "SELECT s.id, s.name, s.joined_ms FROM seats s JOIN classes c ON c.code = s.class_code \
             WHERE s.class_code = $1 AND s.secret_sha256 = $2 AND s.generation = c.generation",
        )
        .bind(code)
        .bind(secret_sha256)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| seat(&r)).transpose()
    }

    /// The seats of the class's room in `generation`, in the order they joined.
    pub async fn seats(&self, code: &str, generation: i64) -> Result<Vec<Seat>, StoreError> {
        self.of_generation(
            "SELECT id, name, joined_ms FROM seats WHERE class_code = $1 AND generation = $2 ORDER BY joined_ms, id",
            code,
            generation,
            |r| Ok(Seat { id: r.try_get(0)?, name: r.try_get(1)?, joined_ms: r.try_get(2)? }),
        )
        .await
    }

    /// Records a met challenge; false when the seat had already met it in this generation
    /// (the table's key refuses the second row, however close two claims come).
    pub async fn complete(&self, generation: i64, done: &Completion) -> Result<bool, StoreError> {
        let inserted = sqlx::query(
            "INSERT INTO completions (seat, generation, challenge, situation, at_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&done.seat)
        .bind(generation)
        .bind(&done.challenge)
        .bind(&done.situation)
        .bind(done.at_ms)
        .execute(&self.pool)
        .await;
        match inserted {
            Ok(_) => Ok(true),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Records a refused claim (the class's common mistakes).
    pub async fn refuse(
        &self,
        generation: i64,
        seat: &str,
        challenge: &str,
        reason: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO refusals (seat, generation, challenge, reason, at_ms) VALUES ($1, $2, $3, $4, $5)")
            .bind(seat)
            .bind(generation)
            .bind(challenge)
            .bind(reason)
            .bind(at_ms)
            .run(self)
            .await
    }

    /// The rows `sql` selects for class `code` (`$1`) in `generation` (`$2`), each read by `read`.
    async fn of_generation<T>(
        &self,
        sql: &'static str,
        code: &str,
        generation: i64,
        read: impl Fn(&AnyRow) -> Result<T, sqlx::Error>,
    ) -> Result<Vec<T>, StoreError> {
        let rows = sqlx::query(sql).bind(code).bind(generation).fetch_all(&self.pool).await?;
        Ok(rows.iter().map(read).collect::<Result<_, _>>()?)
    }

    /// The class's completions in `generation`, oldest first.
    pub async fn completions(&self, code: &str, generation: i64) -> Result<Vec<Completion>, StoreError> {
        self.of_generation(
            "SELECT c.seat, c.challenge, c.situation, c.at_ms FROM completions c JOIN seats s ON s.id = c.seat \
             WHERE s.class_code = $1 AND c.generation = $2 ORDER BY c.at_ms, c.seat",
            code,
            generation,
            |r| {
                Ok(Completion {
                    seat: r.try_get(0)?,
                    challenge: r.try_get(1)?,
                    situation: r.try_get(2)?,
                    at_ms: r.try_get(3)?,
                })
            },
        )
        .await
    }

    /// Keeps a graded quick check, replacing the seat's earlier one in this generation.
    pub async fn grade_quiz(&self, generation: i64, grade: &QuizGrade, answers: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO quiz_grades (seat, generation, answers, score, max, at_ms) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (seat, generation) DO UPDATE SET answers = excluded.answers, score = excluded.score, \
             max = excluded.max, at_ms = excluded.at_ms",
        )
        .bind(&grade.seat)
        .bind(generation)
        .bind(answers)
        .bind(grade.score)
        .bind(grade.max)
        .bind(grade.at_ms)
        .run(self)
        .await
    }

    /// Keeps a Fix-It verifier as the server found it, replacing the seat's earlier one, unless
    /// that one passed and this one does not: a pass, once verified, stays.
    pub async fn report_fixit(&self, generation: i64, report: &FixItReport) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO fixit_reports (seat, generation, code, at_ms, passed, let_through) \
             VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (seat, generation) DO UPDATE SET code = excluded.code, at_ms = excluded.at_ms, \
             passed = excluded.passed, let_through = excluded.let_through \
             WHERE excluded.passed = 1 OR fixit_reports.passed = 0",
        )
        .bind(&report.seat)
        .bind(generation)
        .bind(&report.code)
        .bind(report.at_ms)
        .bind(i64::from(report.passed))
        .bind(&report.let_through)
        .run(self)
        .await
    }

    /// The class's seats, completions, quick checks and Fix-It reports in `generation`.
    pub async fn progress(&self, code: &str, generation: i64) -> Result<Progress, StoreError> {
        let quiz = self
            .of_generation(
                "SELECT q.seat, q.score, q.max, q.at_ms FROM quiz_grades q JOIN seats s ON s.id = q.seat \
                 WHERE s.class_code = $1 AND q.generation = $2 ORDER BY q.at_ms, q.seat",
                code,
                generation,
                |r| {
                    Ok(QuizGrade {
                        seat: r.try_get(0)?,
                        score: r.try_get(1)?,
                        max: r.try_get(2)?,
                        at_ms: r.try_get(3)?,
                    })
                },
            )
            .await?;
        let fixit = self
            .of_generation(
                "SELECT f.seat, f.code, f.at_ms, f.passed, f.let_through FROM fixit_reports f JOIN seats s ON s.id = f.seat \
                 WHERE s.class_code = $1 AND f.generation = $2 ORDER BY f.at_ms, f.seat",
                code,
                generation,
                |r| {
                    Ok(FixItReport {
                        seat: r.try_get(0)?,
                        code: r.try_get(1)?,
                        at_ms: r.try_get(2)?,
                        passed: r.try_get::<i64, _>(3)? == 1,
                        let_through: r.try_get(4)?,
                    })
                },
            )
            .await?;
        Ok(Progress {
            seats: self.seats(code, generation).await?,
            done: self.completions(code, generation).await?,
            quiz,
            fixit,
        })
    }

    /// How often each reason refused a claim in `generation`, most often first.
    pub async fn refusal_counts(&self, code: &str, generation: i64) -> Result<Vec<(String, String, i64)>, StoreError> {
        self.of_generation(
            "SELECT r.challenge, r.reason, COUNT(*) AS n FROM refusals r JOIN seats s ON s.id = r.seat \
             WHERE s.class_code = $1 AND r.generation = $2 GROUP BY r.challenge, r.reason ORDER BY n DESC, r.challenge",
            code,
            generation,
            |r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)),
        )
        .await
    }

    /// Keeps an xAPI statement a seat's lab sent (its `id` also in `body`).
    pub async fn statement(
        &self,
        generation: i64,
        seat: &str,
        id: &str,
        body: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO statements (seat, generation, id, body, at_ms) VALUES ($1, $2, $3, $4, $5)")
            .bind(seat)
            .bind(generation)
            .bind(id)
            .bind(body)
            .bind(at_ms)
            .run(self)
            .await
    }

    /// Up to `most` statements not yet forwarded to the LRS, nor parked, oldest first: `(id, body)`.
    pub async fn unforwarded(&self, most: i64) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, body FROM statements WHERE forwarded_ms IS NULL AND parked IS NULL AND id IS NOT NULL \
             ORDER BY at_ms, id LIMIT $1",
        )
        .bind(most)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).collect()
    }

    /// Marks statements as forwarded.
    pub async fn forwarded(&self, ids: &[String], at_ms: i64) -> Result<(), StoreError> {
        for id in ids {
            sqlx::query("UPDATE statements SET forwarded_ms = $1 WHERE id = $2")
                .bind(at_ms)
                .bind(id)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Parks a statement the LRS refused on its own: never sent again, shown to the instructor
    /// with `why` (the LRS's answer).
    pub async fn park(&self, id: &str, why: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE statements SET parked = $1 WHERE id = $2").bind(why).bind(id).run(self).await
    }

    /// Sends the class's parked statements again (an LRS set right since): how many.
    pub async fn unpark(&self, code: &str) -> Result<u64, StoreError> {
        let unparked = sqlx::query(
            "UPDATE statements SET parked = NULL WHERE parked IS NOT NULL \
             AND seat IN (SELECT id FROM seats WHERE class_code = $1)",
        )
        .bind(code)
        .execute(&self.pool)
        .await?;
        Ok(unparked.rows_affected())
    }

    /// The statements of `generation` the LRS refused: `(seat, id, why)`, oldest first.
    pub async fn parked(&self, code: &str, generation: i64) -> Result<Vec<(String, String, String)>, StoreError> {
        self.of_generation(
            "SELECT t.seat, t.id, t.parked FROM statements t JOIN seats s ON s.id = t.seat \
             WHERE s.class_code = $1 AND t.generation = $2 AND t.parked IS NOT NULL ORDER BY t.at_ms, t.id",
            code,
            generation,
            |r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)),
        )
        .await
    }

    /// How many statements the class kept in `generation`.
    pub async fn statement_count(&self, code: &str, generation: i64) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM statements t JOIN seats s ON s.id = t.seat WHERE s.class_code = $1 AND t.generation = $2",
        )
        .bind(code)
        .bind(generation)
        .fetch_one(&self.pool)
        .await
        ?;
        Ok(row.try_get::<i64, _>(0)?)
    }
}

fn seat(r: &AnyRow) -> Result<Seat, StoreError> {
    Ok(Seat { id: r.try_get(0)?, name: r.try_get(1)?, joined_ms: r.try_get(2)? })
}
