//! The class's records in a database: SQLite in a file by default, PostgreSQL for a class that
//! outgrows one machine (`--db postgres://…`), one code path through sqlx's Any driver, the
//! migrations in `crates/cli/migrations` run at every start. A room reset starts a new
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

/// Fix-It passed, as the student's browser reported it (the verifier runs there).
#[derive(Debug, Clone, PartialEq)]
pub struct FixItReport {
    /// The seat.
    pub seat: String,
    /// The verifier the student wrote.
    pub code: String,
    /// When, ms since the epoch.
    pub at_ms: i64,
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
    /// The Fix-It passes reported.
    pub fixit: Vec<FixItReport>,
}

/// A class as the database holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassRow {
    /// Its code.
    pub code: String,
    /// Its settings, as a lesson's meta element writes them (`hide=hints&scenarios=voucher`).
    pub settings: String,
    /// The instructor's token.
    pub instructor_token: String,
    /// The current generation (one more at each room reset).
    pub generation: i64,
}

/// The database.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
}

fn db(e: sqlx::Error) -> String {
    format!("the class database: {e}")
}

/// A statement that writes and returns nothing, run on the store's pool.
trait Run {
    async fn run(self, store: &Store) -> Result<(), String>;
}

impl<'q> Run for sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    async fn run(self, store: &Store) -> Result<(), String> {
        self.execute(&store.pool).await.map(|_| ()).map_err(db)
    }
}

impl Store {
    /// Opens the database at `url` (`sqlite://class.db`, `postgres://…`), creating a SQLite
    /// file that does not exist, and runs the migrations.
    pub async fn open(url: &str) -> Result<Store, String> {
        sqlx::any::install_default_drivers();
        let url =
            if url.starts_with("sqlite:") && !url.contains('?') { format!("{url}?mode=rwc") } else { url.to_owned() };
        // SQLite takes one writer at a time: one connection, so that writes queue here
        // rather than fail as busy.
        let connections = if url.starts_with("sqlite:") { 1 } else { 8 };
        let pool = AnyPoolOptions::new().max_connections(connections).connect(&url).await.map_err(db)?;
        sqlx::migrate!("./migrations").run(&pool).await.map_err(|e| format!("the class database's migrations: {e}"))?;
        Ok(Store { pool })
    }

    /// The class with `code`, made with `settings` and `token` if it does not exist yet.
    pub async fn class(&self, code: &str, settings: &str, token: &str, now_ms: i64) -> Result<ClassRow, String> {
        if let Some(class) = self.find_class(code).await? {
            return Ok(class);
        }
        sqlx::query(
            "INSERT INTO classes (code, settings, instructor_token, generation, created_ms) VALUES ($1, $2, $3, 1, $4)",
        )
        .bind(code)
        .bind(settings)
        .bind(token)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        self.find_class(code).await?.ok_or_else(|| "the class was not kept".to_owned())
    }

    /// The class with `code`, if there is one.
    pub async fn find_class(&self, code: &str) -> Result<Option<ClassRow>, String> {
        let row = sqlx::query("SELECT code, settings, instructor_token, generation FROM classes WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        row.map(|r| {
            Ok(ClassRow {
                code: r.try_get(0).map_err(db)?,
                settings: r.try_get(1).map_err(db)?,
                instructor_token: r.try_get(2).map_err(db)?,
                generation: r.try_get(3).map_err(db)?,
            })
        })
        .transpose()
    }

    /// Changes the class's settings.
    pub async fn set_settings(&self, code: &str, settings: &str) -> Result<(), String> {
        sqlx::query("UPDATE classes SET settings = $1 WHERE code = $2").bind(settings).bind(code).run(self).await
    }

    /// Starts a new generation: the progress so far becomes the archive. Returns the new one.
    pub async fn reset(&self, code: &str) -> Result<i64, String> {
        sqlx::query("UPDATE classes SET generation = generation + 1 WHERE code = $1")
            .bind(code)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(self.find_class(code).await?.map(|c| c.generation).unwrap_or(1))
    }

    /// Seats a student.
    pub async fn join(&self, code: &str, seat: &Seat, secret_sha256: &str) -> Result<(), String> {
        sqlx::query("INSERT INTO seats (id, class_code, name, secret_sha256, joined_ms) VALUES ($1, $2, $3, $4, $5)")
            .bind(&seat.id)
            .bind(code)
            .bind(&seat.name)
            .bind(secret_sha256)
            .bind(seat.joined_ms)
            .run(self)
            .await
    }

    /// How many seats the class has.
    pub async fn seat_count(&self, code: &str) -> Result<i64, String> {
        let row = sqlx::query("SELECT COUNT(*) FROM seats WHERE class_code = $1")
            .bind(code)
            .fetch_one(&self.pool)
            .await
            .map_err(db)?;
        row.try_get::<i64, _>(0).map_err(db)
    }

    /// The seat whose secret digests to `secret_sha256`, in class `code`.
    pub async fn seat_by_secret(&self, code: &str, secret_sha256: &str) -> Result<Option<Seat>, String> {
        let row = sqlx::query("SELECT id, name, joined_ms FROM seats WHERE class_code = $1 AND secret_sha256 = $2")
            .bind(code)
            .bind(secret_sha256)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        row.map(|r| seat(&r)).transpose()
    }

    /// Every seat of the class, in the order they joined.
    pub async fn seats(&self, code: &str) -> Result<Vec<Seat>, String> {
        let rows = sqlx::query("SELECT id, name, joined_ms FROM seats WHERE class_code = $1 ORDER BY joined_ms, id")
            .bind(code)
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        rows.iter().map(seat).collect()
    }

    /// Records a met challenge; false when the seat had already met it in this generation
    /// (the table's key refuses the second row, however close two claims come).
    pub async fn complete(&self, generation: i64, done: &Completion) -> Result<bool, String> {
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
            Err(e) => Err(db(e)),
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
    ) -> Result<(), String> {
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
    ) -> Result<Vec<T>, String> {
        let rows = sqlx::query(sql).bind(code).bind(generation).fetch_all(&self.pool).await.map_err(db)?;
        rows.iter().map(|row| read(row).map_err(db)).collect()
    }

    /// The class's completions in `generation`, oldest first.
    pub async fn completions(&self, code: &str, generation: i64) -> Result<Vec<Completion>, String> {
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
    pub async fn grade_quiz(&self, generation: i64, grade: &QuizGrade, answers: &str) -> Result<(), String> {
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

    /// Keeps a Fix-It pass the seat's browser reported, replacing its earlier one.
    pub async fn report_fixit(&self, generation: i64, report: &FixItReport) -> Result<(), String> {
        sqlx::query(
            "INSERT INTO fixit_reports (seat, generation, code, at_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (seat, generation) DO UPDATE SET code = excluded.code, at_ms = excluded.at_ms",
        )
        .bind(&report.seat)
        .bind(generation)
        .bind(&report.code)
        .bind(report.at_ms)
        .run(self)
        .await
    }

    /// The class's seats, completions, quick checks and Fix-It reports in `generation`.
    pub async fn progress(&self, code: &str, generation: i64) -> Result<Progress, String> {
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
                "SELECT f.seat, f.code, f.at_ms FROM fixit_reports f JOIN seats s ON s.id = f.seat \
                 WHERE s.class_code = $1 AND f.generation = $2 ORDER BY f.at_ms, f.seat",
                code,
                generation,
                |r| Ok(FixItReport { seat: r.try_get(0)?, code: r.try_get(1)?, at_ms: r.try_get(2)? }),
            )
            .await?;
        Ok(Progress { seats: self.seats(code).await?, done: self.completions(code, generation).await?, quiz, fixit })
    }

    /// How often each reason refused a claim in `generation`, most often first.
    pub async fn refusal_counts(&self, code: &str, generation: i64) -> Result<Vec<(String, String, i64)>, String> {
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
    pub async fn statement(&self, generation: i64, seat: &str, id: &str, body: &str, at_ms: i64) -> Result<(), String> {
        sqlx::query("INSERT INTO statements (seat, generation, id, body, at_ms) VALUES ($1, $2, $3, $4, $5)")
            .bind(seat)
            .bind(generation)
            .bind(id)
            .bind(body)
            .bind(at_ms)
            .run(self)
            .await
    }

    /// Up to `most` statements not yet forwarded to the LRS, oldest first: `(id, body)`.
    pub async fn unforwarded(&self, most: i64) -> Result<Vec<(String, String)>, String> {
        let rows = sqlx::query(
            "SELECT id, body FROM statements WHERE forwarded_ms IS NULL AND id IS NOT NULL ORDER BY at_ms LIMIT $1",
        )
        .bind(most)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows.iter().map(|r| Ok((r.try_get(0).map_err(db)?, r.try_get(1).map_err(db)?))).collect()
    }

    /// Marks statements as forwarded.
    pub async fn forwarded(&self, ids: &[String], at_ms: i64) -> Result<(), String> {
        for id in ids {
            sqlx::query("UPDATE statements SET forwarded_ms = $1 WHERE id = $2")
                .bind(at_ms)
                .bind(id)
                .execute(&self.pool)
                .await
                .map_err(db)?;
        }
        Ok(())
    }

    /// How many statements the class kept in `generation`.
    pub async fn statement_count(&self, code: &str, generation: i64) -> Result<i64, String> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM statements t JOIN seats s ON s.id = t.seat WHERE s.class_code = $1 AND t.generation = $2",
        )
        .bind(code)
        .bind(generation)
        .fetch_one(&self.pool)
        .await
        .map_err(db)?;
        row.try_get::<i64, _>(0).map_err(db)
    }
}

fn seat(r: &AnyRow) -> Result<Seat, String> {
    Ok(Seat { id: r.try_get(0).map_err(db)?, name: r.try_get(1).map_err(db)?, joined_ms: r.try_get(2).map_err(db)? })
}
