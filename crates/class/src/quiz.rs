//! The quick check graded by the class server: the page sends the option chosen for each
//! question and the server reads the key (`web/probe/quiz-key.json`, the file the lab fetches
//! when it explains its answers), so that a class that hides solutions never sends the key to
//! a browser. The grade leaves as an xAPI statement of the same shape as the lab's own.
//!
//! ```
//! use mrtr_class::quiz::{grade, QUESTIONS};
//! assert_eq!(QUESTIONS, 5);
//! let graded = grade(&[1, 2, 1, 1, 1]).unwrap();
//! assert_eq!((graded.score, graded.max), (5, 5));
//! assert_eq!(grade(&[0, 0, 0, 0, 0]).unwrap().score, 0);
//! assert!(grade(&[1, 2]).is_err());
//! ```

use serde::Deserialize;
use serde_json::Value;
use std::sync::LazyLock;

/// The key, as the lab's quiz fetches it.
pub const KEY_JSON: &str = include_str!("../../../web/probe/quiz-key.json");

/// How many questions the quick check asks.
pub const QUESTIONS: usize = 5;

/// The highest option index an answer may name (each question has three).
const MAX_OPTION: u8 = 2;

#[derive(Deserialize)]
struct Answer {
    right: u8,
}

static KEY: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let key: Vec<Answer> = serde_json::from_str(KEY_JSON).unwrap_or_else(|e| unreachable!("quiz-key.json: {e}"));
    key.into_iter().map(|a| a.right).collect()
});

/// A graded quick check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Graded {
    /// Right answers.
    pub score: usize,
    /// Questions.
    pub max: usize,
}

/// Grades `answers` (the index of the option chosen for each question, from 0), or says why
/// they cannot be graded.
pub fn grade(answers: &[u8]) -> Result<Graded, String> {
    if answers.len() != KEY.len() {
        return Err(format!("the quick check has {} questions; {} answers came", KEY.len(), answers.len()));
    }
    if let Some(q) = answers.iter().position(|&a| a > MAX_OPTION) {
        return Err(format!("question {} has no option {}", q + 1, answers[q]));
    }
    let score = answers.iter().zip(KEY.iter()).filter(|(a, right)| a == right).count();
    Ok(Graded { score, max: KEY.len() })
}

/// The xAPI statement of a graded quick check: the lab's own `mrtr-lab:quiz` statement
/// ([`mrtr_lab::xapi::quiz`]), without actor and time, which the class server adds to every
/// statement.
pub fn statement(activity: &str, graded: Graded) -> Value {
    mrtr_lab::xapi::quiz(activity, graded.score, graded.max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_has_one_answer_per_question() {
        assert_eq!(KEY.len(), QUESTIONS);
        assert!(KEY.iter().all(|&right| right <= 2), "three options each: {:?}", *KEY);
    }

    #[test]
    fn each_answer_counts_once() {
        let mut answers = KEY.clone();
        for q in 0..QUESTIONS {
            answers[q] = (KEY[q] + 1) % 3;
            assert_eq!(grade(&answers).map(|g| g.score), Ok(QUESTIONS - q - 1));
        }
        let refused = grade(&[0, 0, 0, 0, 200]);
        assert!(refused.as_ref().is_err_and(|why| why.contains("question 5 has no option 200")), "{refused:?}");
    }
}
