//! The error body of the interface: `{"message", "code", "issues": [{"message", "path"}]}`.
//!
//! `issues` appears on validation errors only, one entry per problem (all problems at once);
//! `message` is the single problem's message, or "N problems: a; b".

use serde_json::json;

/// One validation problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// What is wrong, naming the parameter and what was expected.
    pub message: String,
    /// The parameter (`[]` for a rule over several parameters).
    pub path: Vec<String>,
}

impl Issue {
    /// A problem with parameter `param`.
    pub fn param(param: &str, message: impl Into<String>) -> Issue {
        Issue {
            message: message.into(),
            path: vec![param.to_string()],
        }
    }

    /// A problem with no single parameter (an "at least one of" rule).
    pub fn general(message: impl Into<String>) -> Issue {
        Issue {
            message: message.into(),
            path: Vec::new(),
        }
    }
}

/// An error answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status.
    pub status: u16,
    /// Interface code (`BAD_REQUEST`, `NOT_FOUND`…).
    pub code: &'static str,
    /// Message.
    pub message: String,
    /// Validation problems (empty for other errors; then `issues` is omitted).
    pub issues: Vec<Issue>,
}

impl ApiError {
    /// 400 with one or more validation problems.
    pub fn invalid(issues: Vec<Issue>) -> ApiError {
        let message = match issues.as_slice() {
            [one] => one.message.clone(),
            many => format!(
                "{} problems: {}",
                many.len(),
                many.iter()
                    .map(|i| i.message.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        };
        ApiError {
            status: 400,
            code: "BAD_REQUEST",
            message,
            issues,
        }
    }

    /// 400 for one problem with parameter `param`.
    pub fn param(param: &str, message: impl Into<String>) -> ApiError {
        ApiError::invalid(vec![Issue::param(param, message)])
    }

    /// 404.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 404,
            code: "NOT_FOUND",
            message: message.into(),
            issues: Vec::new(),
        }
    }

    /// 405.
    pub fn method(method: &str) -> ApiError {
        ApiError {
            status: 405,
            code: "METHOD_NOT_SUPPORTED",
            message: format!("method {method} is not supported; use GET or HEAD"),
            issues: Vec::new(),
        }
    }

    /// 414 or 431 (too large a request).
    pub fn too_large(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code: "PAYLOAD_TOO_LARGE",
            message: message.into(),
            issues: Vec::new(),
        }
    }

    /// 503.
    pub fn overloaded() -> ApiError {
        ApiError {
            status: 503,
            code: "SERVICE_UNAVAILABLE",
            message: "the server is busy; retry shortly".into(),
            issues: Vec::new(),
        }
    }

    /// 503: the catalog cannot be read now (`why`: the file was changed under the server).
    pub fn unavailable(why: impl Into<String>) -> ApiError {
        ApiError {
            status: 503,
            code: "SERVICE_UNAVAILABLE",
            message: why.into(),
            issues: Vec::new(),
        }
    }

    /// 500 (a bug; never caused by input).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 500,
            code: "INTERNAL_SERVER_ERROR",
            message: message.into(),
            issues: Vec::new(),
        }
    }

    /// The JSON body.
    pub fn body(&self) -> Vec<u8> {
        let mut v = json!({ "message": self.message, "code": self.code });
        if !self.issues.is_empty() {
            v["issues"] = self
                .issues
                .iter()
                .map(|i| json!({ "message": i.message, "path": i.path }))
                .collect();
        }
        serde_json::to_vec(&v).expect("error body serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_body_shapes() {
        let one = ApiError::param(
            "limit",
            "limit must be an integer from 1 to 100, got \"1000\"",
        );
        assert_eq!(
            String::from_utf8(one.body()).unwrap(),
            r#"{"message":"limit must be an integer from 1 to 100, got \"1000\"","code":"BAD_REQUEST","issues":[{"message":"limit must be an integer from 1 to 100, got \"1000\"","path":["limit"]}]}"#
        );
        let two = ApiError::invalid(vec![Issue::param("a", "x"), Issue::general("y")]);
        assert_eq!(two.message, "2 problems: x; y");
        assert_eq!(
            String::from_utf8(ApiError::not_found("nope").body()).unwrap(),
            r#"{"message":"nope","code":"NOT_FOUND"}"#
        );
    }
}
