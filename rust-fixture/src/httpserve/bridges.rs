//! One bridge child per principal, started on that principal's first call: the bridge takes its principal from its
//! own environment (`WIRE_PRINCIPAL`), and its protocol has no principal field.

use crate::bridge::{self, Client};
use crate::config::{self, Fault};
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

pub struct PrincipalBridges {
    argv: Vec<String>,
    /// This process's environment as the bridge may see it, without `WIRE_PRINCIPAL`.
    inherited: Vec<(String, String)>,
    clients: Mutex<Clients>,
}

#[derive(Default)]
struct Clients {
    by_principal: HashMap<String, Client>,
    closed: bool,
}

impl PrincipalBridges {
    /// `argv` is the bridge command (not empty); `lookup` this process's environment.
    pub fn new(argv: Vec<String>, lookup: impl Fn(&str) -> Option<String>) -> Result<PrincipalBridges, bridge::EmptyCommand> {
        if argv.is_empty() {
            return Err(bridge::EmptyCommand);
        }
        let close_after_commit = Fault::CloseAfterCommit.name();
        let inherited = bridge::environment(|name| match name {
            config::PRINCIPAL => None,
            // close-after-commit is the fixture's own fault; the bridge knows only the stdio ones.
            config::FAULT => lookup(name).filter(|fault| fault != close_after_commit),
            _ => lookup(name),
        });
        Ok(PrincipalBridges { argv, inherited, clients: Mutex::new(Clients::default()) })
    }

    fn clients(&self) -> std::sync::MutexGuard<'_, Clients> {
        self.clients.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The principal's bridge; its child starts on its first call.
    pub fn for_principal(&self, principal: &str) -> Client {
        let mut clients = self.clients();
        if let Some(client) = clients.by_principal.get(principal) {
            return client.clone();
        }
        let mut env = self.inherited.clone();
        env.push((config::PRINCIPAL.to_owned(), principal.to_owned()));
        let client = Client::new(bridge::Options::new(self.argv.clone(), env)).expect("the command was checked in new");
        if clients.closed {
            let closing = client.clone();
            tokio::spawn(async move { closing.close(Duration::ZERO).await });
        }
        clients.by_principal.insert(principal.to_owned(), client.clone());
        client
    }

    /// How many principals have a bridge so far.
    pub fn len(&self) -> usize {
        self.clients().by_principal.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Ends every bridge child and waits for them; a later call fails.
    pub async fn close(&self, grace: Duration) {
        let clients: Vec<Client> = {
            let mut clients = self.clients();
            clients.closed = true;
            clients.by_principal.values().cloned().collect()
        };
        let closing: Vec<_> = clients.into_iter().map(|c| tokio::spawn(async move { c.close(grace).await })).collect();
        for task in closing {
            let _ = task.await;
        }
    }
}
