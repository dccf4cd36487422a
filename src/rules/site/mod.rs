//! Relations between the files of a site: an index and its children.

pub mod index_child;
