//! Unit tests of the TGSI front end.
