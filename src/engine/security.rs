//! The users of a DBMS, as Neo4j community keeps them in its system database: a name, a salted
//! password hash and whether the password must be changed before anything else is done.
//!
//! Passwords are kept only as Neo4j's version 1 credential: SHA-256 over the salt and the
//! password, hashed again 1,023 times (Apache Shiro's `SimpleHash`, which Neo4j uses), so that
//! `SET ENCRYPTED PASSWORD '1,<hash>,<salt>'` taken from a Neo4j `SHOW USERS WITH AUTH` or
//! written by `neo4j-admin` is accepted as it is; version 0 (one round) is read too. Neither a
//! password nor a hash is ever printed (`Debug` lists the names).

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Neo4j's shortest password (`dbms.security.auth_minimum_password_length`).
pub const MIN_PASSWORD_LENGTH: usize = 8;

#[derive(Clone)]
struct Credential {
    version: u8,
    salt: Vec<u8>,
    hash: Vec<u8>,
}

impl Credential {
    fn iterations(version: u8) -> usize {
        if version == 0 {
            1
        } else {
            1024
        }
    }

    fn hash(version: u8, salt: &[u8], password: &str) -> Vec<u8> {
        let mut h = Sha256::new();
        h.update(salt);
        h.update(password.as_bytes());
        let mut out = h.finalize();
        for _ in 1..Self::iterations(version) {
            out = Sha256::digest(out);
        }
        out.to_vec()
    }

    fn new(password: &str) -> Credential {
        let salt = fresh_salt();
        Credential {
            version: 1,
            hash: Self::hash(1, &salt, password),
            salt,
        }
    }

    /// `<version>,<hash hex>,<salt hex>`, Neo4j's encrypted-password form.
    fn parse(text: &str) -> Option<Credential> {
        let mut parts = text.split(',');
        let (Some(v), Some(h), Some(s), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return None;
        };
        let version = match v {
            "0" => 0,
            "1" => 1,
            _ => return None,
        };
        let (hash, salt) = (hex(h)?, hex(s)?);
        (hash.len() == 32 && !salt.is_empty()).then_some(Credential {
            version,
            salt,
            hash,
        })
    }

    fn matches(&self, password: &str) -> bool {
        let h = Self::hash(self.version, &self.salt, password);
        // Compared in full whatever differs first.
        h.len() == self.hash.len()
            && h.iter().zip(&self.hash).fold(0u8, |a, (x, y)| a | (x ^ y)) == 0
    }
}

fn hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || s.len() > 1024 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// 32 bytes no one can guess from outside the process: the standard library's per-process
/// random hash keys, a counter and the clock, through SHA-256.
fn fresh_salt() -> Vec<u8> {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = Sha256::new();
    for _ in 0..4 {
        let mut k = std::collections::hash_map::RandomState::new().build_hasher();
        k.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        h.update(k.finish().to_le_bytes());
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.update(now.to_le_bytes());
    h.finalize().to_vec()
}

#[derive(Clone)]
struct User {
    credential: Credential,
    change_required: bool,
}

/// A row of `SHOW USERS`: the name and whether the password must be changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserInfo {
    pub name: String,
    pub change_required: bool,
}

/// Why a user command failed, in Neo4j's words (the caller adds the command's prefix).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UserError {
    #[error("User already exists.")]
    Exists,
    #[error("User does not exist.")]
    Missing,
    #[error("Old password and new password cannot be the same.")]
    SamePassword,
    #[error("Invalid principal or credentials.")]
    BadCredentials,
    #[error("Deleting yourself is not allowed.")]
    DeletingYourself,
    #[error("User '{0}' already exists.")]
    TargetExists(String),
    #[error("The user '{0}' does not exist.")]
    SourceMissing(String),
}

/// How a password is given to [`Users::create`] and [`Users::set_password`].
#[derive(Clone, Copy, Debug)]
pub enum Password<'a> {
    Plain(&'a str),
    /// Neo4j's `<version>,<hash>,<salt>` (checked by [`Users::valid_encrypted`]).
    Encrypted(&'a str),
}

/// The users at one moment (see [`Users::snapshot`]); opaque, and printed without secrets.
pub struct UsersSnapshot(BTreeMap<String, User>);

impl std::fmt::Debug for UsersSnapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.keys()).finish()
    }
}

/// The users of one DBMS, shared by its connections.
#[derive(Default)]
pub struct Users {
    users: Mutex<BTreeMap<String, User>>,
}

impl std::fmt::Debug for Users {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.lock().keys().cloned().collect::<Vec<_>>())
            .finish()
    }
}

impl Users {
    /// A DBMS whose only user is `name`, with `password` that need not be changed.
    pub fn with_initial(name: &str, password: &str) -> Users {
        let u = Users::default();
        u.lock().insert(
            name.to_string(),
            User {
                credential: Credential::new(password),
                change_required: false,
            },
        );
        u
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, User>> {
        self.users.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The users as they are now, to go back to when a transaction that changes them rolls
    /// back.
    pub fn snapshot(&self) -> UsersSnapshot {
        UsersSnapshot(self.lock().clone())
    }

    /// Puts back the users of a [`Users::snapshot`].
    pub fn restore(&self, s: UsersSnapshot) {
        *self.lock() = s.0;
    }

    /// Whether `text` is an encrypted password Neo4j would take.
    pub fn valid_encrypted(text: &str) -> bool {
        Credential::parse(text).is_some()
    }

    fn credential(p: Password<'_>) -> Credential {
        match p {
            Password::Plain(s) => Credential::new(s),
            Password::Encrypted(s) => Credential::parse(s).unwrap_or_else(|| Credential::new(s)),
        }
    }

    /// `Some(change_required)` when `name` and `password` are a user's; `None` otherwise.
    pub fn authenticate(&self, name: &str, password: &str) -> Option<bool> {
        let users = self.lock();
        let u = users.get(name)?;
        u.credential.matches(password).then_some(u.change_required)
    }

    pub fn exists(&self, name: &str) -> bool {
        self.lock().contains_key(name)
    }

    /// Every user, by name.
    pub fn list(&self) -> Vec<UserInfo> {
        self.lock()
            .iter()
            .map(|(name, u)| UserInfo {
                name: name.clone(),
                change_required: u.change_required,
            })
            .collect()
    }

    /// Creates a user; `replace` drops one of that name first. Returns the system updates
    /// Neo4j counts (1, or 2 for a replaced user).
    pub fn create(
        &self,
        name: &str,
        password: Password<'_>,
        change_required: bool,
        replace: bool,
    ) -> Result<u64, UserError> {
        let mut users = self.lock();
        let replaced = users.contains_key(name);
        if replaced && !replace {
            return Err(UserError::Exists);
        }
        users.insert(
            name.to_string(),
            User {
                credential: Self::credential(password),
                change_required,
            },
        );
        Ok(if replaced { 2 } else { 1 })
    }

    /// Sets a user's password (refusing the one it has) and, when given, whether it must be
    /// changed.
    pub fn set_password(
        &self,
        name: &str,
        password: Option<Password<'_>>,
        change_required: Option<bool>,
    ) -> Result<(), UserError> {
        let mut users = self.lock();
        let u = users.get_mut(name).ok_or(UserError::Missing)?;
        if let Some(p) = password {
            if let Password::Plain(s) = p {
                if u.credential.matches(s) {
                    return Err(UserError::SamePassword);
                }
            }
            u.credential = Self::credential(p);
        }
        if let Some(c) = change_required {
            u.change_required = c;
        }
        Ok(())
    }

    /// `ALTER CURRENT USER SET PASSWORD FROM old TO new`: the new password needs no change.
    pub fn change_own_password(&self, name: &str, old: &str, new: &str) -> Result<(), UserError> {
        let mut users = self.lock();
        let u = users.get_mut(name).ok_or(UserError::BadCredentials)?;
        if !u.credential.matches(old) {
            return Err(UserError::BadCredentials);
        }
        if old == new {
            return Err(UserError::SamePassword);
        }
        u.credential = Credential::new(new);
        u.change_required = false;
        Ok(())
    }

    pub fn rename(&self, from: &str, to: &str) -> Result<(), UserError> {
        let mut users = self.lock();
        if !users.contains_key(from) {
            return Err(UserError::SourceMissing(from.to_string()));
        }
        if from == to {
            return Ok(());
        }
        if users.contains_key(to) {
            return Err(UserError::TargetExists(to.to_string()));
        }
        if let Some(u) = users.remove(from) {
            users.insert(to.to_string(), u);
        }
        Ok(())
    }

    /// Drops a user; `current` (the session's own user) cannot drop itself.
    pub fn drop_user(&self, name: &str, current: Option<&str>) -> Result<(), UserError> {
        let mut users = self.lock();
        if !users.contains_key(name) {
            return Err(UserError::Missing);
        }
        if current == Some(name) {
            return Err(UserError::DeletingYourself);
        }
        users.remove(name);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_checked_against_salted_hashes() {
        let u = Users::with_initial("neo4j", "password1");
        assert_eq!(u.authenticate("neo4j", "password1"), Some(false));
        assert_eq!(u.authenticate("neo4j", "password2"), None);
        assert_eq!(u.authenticate("nobody", "password1"), None);
        assert!(!format!("{u:?}").contains("password1"));
    }

    #[test]
    fn neo4j_encrypted_passwords_are_read() {
        // Version 1: SHA-256 over salt and password, then 1,023 more rounds (the Neo4j 5.26
        // oracle logs in with the password behind a credential made this way).
        let salt: Vec<u8> = (0u8..32).collect();
        let enc = format!(
            "1,{},{}",
            Credential::hash(1, &salt, "secretpw1")
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>(),
            salt.iter().map(|b| format!("{b:02x}")).collect::<String>()
        );
        assert!(Users::valid_encrypted(&enc));
        let u = Users::default();
        u.create("enc", Password::Encrypted(&enc), false, false)
            .unwrap();
        assert_eq!(u.authenticate("enc", "secretpw1"), Some(false));
        assert!(!Users::valid_encrypted("1,zz,00"));
        assert!(!Users::valid_encrypted("password"));
    }
}
