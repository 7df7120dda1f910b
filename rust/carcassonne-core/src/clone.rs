//! Copying a game cheaply: a search copies the game it thinks about thousands of times.
//!
//! `Clone` is written field by field (`clone_by_field!`) so that `clone_from` into a game
//! kept from the last copy reuses every buffer (the derived `clone_from` allocates a whole
//! new game), and the board copies only its placed tiles and open squares instead of its
//! grids (see `Board`'s `Clone`). A copy is the same game: it plays on exactly like the
//! original.

/// `impl Clone` for a struct whose fields are all `Clone`: `clone` clones each field and
/// `clone_from` calls each field's `clone_from`, which for a `Vec` reuses its buffer when
/// it is large enough. Every field must be named: `clone` builds the struct literally, so
/// a field added later and not listed here fails to compile.
macro_rules! clone_by_field {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Clone for $ty {
            fn clone(&self) -> Self {
                $ty { $($field: Clone::clone(&self.$field)),* }
            }

            fn clone_from(&mut self, source: &Self) {
                $(Clone::clone_from(&mut self.$field, &source.$field);)*
            }
        }
    };
}

pub(crate) use clone_by_field;
