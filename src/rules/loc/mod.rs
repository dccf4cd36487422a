//! `<loc>` URLs: syntax, length, hosts, scope and duplicates.

pub mod duplicate_loc;
pub mod loc_credentials;
pub mod loc_fragment;
pub mod loc_invalid;
pub mod loc_length;
pub mod loc_mixed_hosts;
pub mod loc_not_ascii;
pub mod loc_outside_scope;
pub mod loc_private_host;
