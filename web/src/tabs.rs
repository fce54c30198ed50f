//! Tabs: several named expressions in one page, each with its own view; a tab's
//! expression may name another tab's value (by the tab's name), and the compare mode draws
//! the open tab against another one. The open tab's expression and view are the state's
//! (`State::expr`, `State::opts.view`); the others wait here.

use crate::state::{Query, State, DEFAULT_EXPR, MAX_EXPR_CHARS};
use cute_lang::Value;
use cute_render::View;

/// A tab that is not open.
#[derive(Clone, Debug, PartialEq)]
pub struct Tab {
    /// Its name: what other tabs' expressions call its value (`A`, `B`, ...).
    pub name: String,
    /// Its expression or script.
    pub expr: String,
    /// Its view.
    pub view: View,
}

/// Every tab of the page: `list` is empty while there is one (named [`FIRST`]); otherwise
/// it holds them all in order, the open one's entry a placeholder (its text is the
/// state's).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tabs {
    /// The tabs in order (empty: one tab).
    pub list: Vec<Tab>,
    /// The open tab's index.
    pub active: usize,
    /// The tab the open one is compared with (`cmp=NAME`), if any.
    pub cmp: Option<String>,
}

/// The name of a page's only tab.
pub const FIRST: &str = "A";

/// Most tabs a page holds (a URL is user input).
pub const MAX_TABS: usize = 26;

impl Tabs {
    /// The tabs' names, in order.
    pub fn names(&self) -> Vec<String> {
        if self.list.is_empty() {
            vec![FIRST.to_string()]
        } else {
            self.list.iter().map(|t| t.name.clone()).collect()
        }
    }

    /// The open tab's name.
    pub fn active_name(&self) -> String {
        self.list
            .get(self.active)
            .map_or_else(|| FIRST.to_string(), |t| t.name.clone())
    }

    /// The first letter no tab is named.
    fn fresh_name(&self) -> Option<String> {
        let names = self.names();
        (b'A'..=b'Z')
            .map(|c| char::from(c).to_string())
            .find(|n| !names.contains(n))
    }
}

/// A tab's name as the URL may give it: an identifier of at most 16 characters that does
/// not start with a digit (other tabs' expressions call its value by it).
fn name_ok(v: &str) -> bool {
    (1..=16).contains(&v.len())
        && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !v.starts_with(|c: char| c.is_ascii_digit())
}

/// A link's tab parameters while it is read: `tab=NAME`, then that tab's `expr` and
/// `view` (the first tab's may come before any `tab=`), `active=NAME`, `cmp=NAME`.
#[derive(Default)]
pub(crate) struct TabsQuery {
    tabs: Vec<Tab>,
    active: Option<String>,
}

impl TabsQuery {
    /// Read `k=v` if it is a tab's parameter: `None` where it is not (an `expr` or `view`
    /// before any `tab=` is the state's own), `Some(Err(why))` where it is ignored.
    pub(crate) fn read(
        &mut self,
        s: &mut State,
        k: &str,
        v: &str,
    ) -> Option<Result<(), &'static str>> {
        Some(match k {
            "tab" if !name_ok(v) => Err("a tab's name is a letter or an identifier"),
            "tab" => {
                if self.tabs.is_empty() && s.expr != DEFAULT_EXPR {
                    // The first tab's parameters came before any `tab=`: it is tab A.
                    self.tabs.push(Tab {
                        name: FIRST.into(),
                        expr: std::mem::take(&mut s.expr),
                        view: s.opts.view,
                    });
                }
                if self.tabs.len() >= MAX_TABS {
                    Err("too many tabs")
                } else if self.tabs.iter().any(|t| t.name == v) {
                    Err("a second tab of that name")
                } else {
                    self.tabs.push(open_slot(v.to_string()));
                    Ok(())
                }
            }
            "active" => {
                self.active = Some(v.to_string());
                Ok(())
            }
            "cmp" if name_ok(v) => {
                s.tabs.cmp = Some(v.to_string());
                Ok(())
            }
            "cmp" => Err("not a tab's name"),
            "expr" | "view" => {
                let t = self.tabs.last_mut()?;
                if k == "view" {
                    View::parse(v)
                        .map(|view| t.view = view)
                        .ok_or("not a view name")
                } else if v.chars().count() > MAX_EXPR_CHARS {
                    Err("longer than 100000 characters")
                } else {
                    t.expr = v.to_string();
                    Ok(())
                }
            }
            _ => return None,
        })
    }

    /// The tabs read into `s`: the one `active=` names open (else the first); a `cmp=`
    /// that names no other tab is a notice.
    pub(crate) fn finish(mut self, s: &mut State, notes: &mut Vec<String>) {
        if self.tabs.len() >= 2 {
            let i = self
                .active
                .as_deref()
                .and_then(|a| self.tabs.iter().position(|t| t.name == a))
                .unwrap_or(0);
            let name = self.tabs[i].name.clone();
            let open = std::mem::replace(&mut self.tabs[i], open_slot(name));
            s.expr = open.expr;
            s.opts.view = open.view;
            s.tabs.list = self.tabs;
            s.tabs.active = i;
        } else if let Some(t) = self.tabs.pop() {
            s.expr = t.expr;
            s.opts.view = t.view;
        }
        let names = s.tabs.names();
        if s.tabs
            .cmp
            .as_ref()
            .is_some_and(|c| !names.contains(c) || *c == s.tabs.active_name())
        {
            notes.push("ignored URL parameter cmp: not another tab's name".into());
            s.tabs.cmp = None;
        }
    }
}

/// A placeholder for the open tab's entry: its text lives in the state.
fn open_slot(name: String) -> Tab {
    Tab {
        name,
        expr: String::new(),
        view: View::Auto,
    }
}

impl State {
    /// Open a new tab holding a copy of the open one (the start of a variant to compare),
    /// named by the next free letter. Nothing happens past [`MAX_TABS`].
    ///
    /// ```
    /// use cute_web::state::State;
    /// let mut s = State::default();
    /// s.expr = "(8,8):(8,1)".into();
    /// s.add_tab();
    /// assert_eq!(s.tabs.names(), ["A", "B"]);
    /// assert_eq!((s.tabs.active_name(), s.expr.as_str()), ("B".to_string(), "(8,8):(8,1)"));
    /// s.expr = "(8,8):(1,8)".into();
    /// s.switch_tab(0);
    /// assert_eq!(s.expr, "(8,8):(8,1)");
    /// assert_eq!(s.tab_expr("B").as_deref(), Some("(8,8):(1,8)"));
    /// ```
    pub fn add_tab(&mut self) {
        let Some(name) = self.tabs.fresh_name() else {
            return;
        };
        if self.tabs.list.is_empty() {
            self.tabs.list.push(open_slot(FIRST.to_string()));
            self.tabs.active = 0;
        }
        if self.tabs.list.len() >= MAX_TABS {
            return;
        }
        let copy = Tab {
            name,
            expr: self.expr.clone(),
            view: self.opts.view,
        };
        self.tabs.list.push(copy);
        self.switch_tab(self.tabs.list.len() - 1);
    }

    /// Start a variant of the open tab: a copy of it in a new tab, compared with it, so
    /// that an edit of the copy (a new swizzle, the MN-major form) marks the cells where the
    /// two differ. Nothing happens past [`MAX_TABS`].
    ///
    /// ```
    /// use cute_web::state::State;
    /// let mut s = State::default();
    /// s.expr = "(8,8):(8,1)".into();
    /// s.compare_variant();
    /// assert_eq!((s.tabs.active_name().as_str(), s.tabs.cmp.as_deref()), ("B", Some("A")));
    /// assert_eq!(s.expr, "(8,8):(8,1)");
    /// ```
    pub fn compare_variant(&mut self) {
        let original = self.tabs.active_name();
        self.add_tab();
        // A new tab is the open one; past the cap the original stays open.
        if self.tabs.active_name() != original {
            self.tabs.cmp = Some(original);
        }
    }

    /// Open tab `i` (its expression and view become the state's).
    pub fn switch_tab(&mut self, i: usize) {
        let t = &mut self.tabs;
        if i == t.active || i >= t.list.len() {
            return;
        }
        let old = t.active;
        t.list[old].expr = std::mem::take(&mut self.expr);
        t.list[old].view = self.opts.view;
        let name = t.list[i].name.clone();
        let new = std::mem::replace(&mut t.list[i], open_slot(name));
        self.expr = new.expr;
        self.opts.view = new.view;
        t.active = i;
        self.pin = None;
        if t.cmp.as_deref() == Some(&t.list[i].name) {
            t.cmp = None;
        }
    }

    /// Close tab `i`; the last one left is the page's only tab again.
    ///
    /// ```
    /// use cute_web::state::State;
    /// let mut s = State::default();
    /// s.add_tab();
    /// s.expr = "8:1".into();
    /// s.close_tab(0);
    /// assert!(s.tabs.list.is_empty());
    /// assert_eq!(s.expr, "8:1");
    /// ```
    pub fn close_tab(&mut self, i: usize) {
        if self.tabs.list.len() < 2 || i >= self.tabs.list.len() {
            return;
        }
        if i == self.tabs.active {
            self.switch_tab(if i == 0 { 1 } else { i - 1 });
        }
        let gone = self.tabs.list.remove(i).name;
        if i < self.tabs.active {
            self.tabs.active -= 1;
        }
        if self.tabs.cmp.as_deref() == Some(&gone) {
            self.tabs.cmp = None;
        }
        if self.tabs.list.len() == 1 {
            self.tabs = Tabs::default();
        }
    }

    /// The tabs' parameters of the link that restores this state: the one tab's `expr` and
    /// `view` where there is one, else each tab's name, expression and view in order, and
    /// the open one (where it is not the first); the compared tab.
    pub(crate) fn add_tabs_query(&self, q: &mut Query) {
        if self.tabs.list.is_empty() {
            if self.expr != DEFAULT_EXPR {
                q.add("expr", &self.expr);
            }
            if self.opts.view != View::Auto {
                q.add("view", self.opts.view.name());
            }
        } else {
            for (i, t) in self.tabs.list.iter().enumerate() {
                let (expr, view) = if i == self.tabs.active {
                    (self.expr.as_str(), self.opts.view)
                } else {
                    (t.expr.as_str(), t.view)
                };
                q.add("tab", &t.name);
                q.add("expr", expr);
                if view != View::Auto {
                    q.add("view", view.name());
                }
            }
            if self.tabs.active != 0 {
                q.add("active", &self.tabs.active_name());
            }
        }
        if let Some(c) = &self.tabs.cmp {
            q.add("cmp", c);
        }
    }

    /// The expression of the tab named `name` (the open one's is the state's).
    pub fn tab_expr(&self, name: &str) -> Option<String> {
        if name == self.tabs.active_name() {
            return Some(self.expr.clone());
        }
        self.tabs
            .list
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.expr.clone())
    }

    /// The values of the other tabs the open tab's expression names, to bind before it
    /// runs; a tab's own references are followed (a cycle is an error naming it).
    ///
    /// ```
    /// use cute_web::state::State;
    /// let mut s = State::default();
    /// s.expr = "(4,8):(8,1)".into();
    /// s.add_tab();
    /// s.expr = "coalesce(A)".into();
    /// let b = s.tab_bindings().unwrap();
    /// assert_eq!(b.len(), 1);
    /// assert_eq!((b[0].0.as_str(), b[0].1.to_string()), ("A", "(4,8):(8,1)".to_string()));
    /// ```
    pub fn tab_bindings(&self) -> Result<Vec<(String, Value)>, String> {
        let mut stack = vec![self.tabs.active_name()];
        self.bindings_of(&self.expr, &mut stack)
    }

    fn bindings_of(
        &self,
        expr: &str,
        stack: &mut Vec<String>,
    ) -> Result<Vec<(String, Value)>, String> {
        let mut out = Vec::new();
        for name in self.tabs.names() {
            if !names_word(expr, &name) || stack.last() == Some(&name) {
                continue;
            }
            if stack.contains(&name) {
                return Err(format!(
                    "tabs {} and {name} name each other's values",
                    stack.join(", ")
                ));
            }
            let Some(text) = self.tab_expr(&name) else {
                continue;
            };
            stack.push(name.clone());
            let inner = self.bindings_of(&text, stack)?;
            stack.pop();
            let e = cute_render::evaluate_with(&text, &inner);
            let (v, _) = e
                .drawn_value()
                .map_err(|err| format!("tab {name}: {}", err.msg))?;
            out.push((name, v));
        }
        Ok(out)
    }

    /// What of the other tabs a drawing of the open one depends on: its name, the compare
    /// mode, the others' texts (a change there redraws it).
    pub fn tab_context(&self) -> String {
        let mut ctx = format!("{}|{:?}", self.tabs.active_name(), self.tabs.cmp);
        for t in &self.tabs.list {
            ctx.push('\u{0}');
            ctx.push_str(&t.name);
            ctx.push('=');
            ctx.push_str(&t.expr);
        }
        ctx
    }

    /// The value of the tab compared with the open one, if the compare mode is on.
    pub fn compared(&self) -> Option<Result<(String, Value), String>> {
        let name = self.tabs.cmp.clone()?;
        let text = self.tab_expr(&name)?;
        let mut stack = vec![name.clone()];
        Some(self.bindings_of(&text, &mut stack).and_then(|b| {
            cute_render::evaluate_with(&text, &b)
                .drawn_value()
                .map(|(v, _)| (name.clone(), v))
                .map_err(|e| format!("tab {name}: {}", e.msg))
        }))
    }
}

/// Whether `text` uses `name` as a word (an identifier, not part of a longer one).
fn names_word(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

#[cfg(test)]
mod tests {
    use crate::state::State;

    #[test]
    fn tabs_and_compare_round_trip_through_the_url() {
        let mut s = State {
            expr: "(4,8):(8,1)".into(),
            ..Default::default()
        };
        s.add_tab();
        s.expr = "coalesce(A)".into();
        s.opts.view = cute_render::View::Layout;
        s.tabs.cmp = Some("A".into());
        let q = s.to_query();
        assert_eq!(
            q,
            "?tab=A&expr=(4,8):(8,1)&tab=B&expr=coalesce(A)&view=layout&active=B&cmp=A"
        );
        let (back, notes) = State::from_query(&q);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(back, s);
        // An old single-tab link followed by a tab: the first tab's parameters are tab A's.
        let (t, _) = State::from_query("?expr=8:1&tab=B&expr=16:1");
        assert_eq!(t.tabs.names(), ["A", "B"]);
        assert_eq!(
            (t.expr.as_str(), t.tab_expr("B").as_deref()),
            ("8:1", Some("16:1"))
        );
    }

    #[test]
    fn bad_tab_parameters_are_notices() {
        let (s, notes) = State::from_query("?tab=A&expr=8:1&tab=A&expr=4:1&cmp=Z&tab=<x>");
        assert_eq!(
            s.tabs.names(),
            ["A"],
            "one tab, the second of its name ignored"
        );
        assert_eq!(notes.len(), 3, "{notes:?}");
        // A link before tabs is tab A: a `tab=A` after it is a second tab A.
        let (s, notes) = State::from_query("?expr=8:1&tab=A&expr=16:1&tab=B&expr=A");
        assert_eq!(s.tabs.names(), ["A", "B"]);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("a second tab of that name"), "{notes:?}");
    }

    #[test]
    fn a_variant_past_the_cap_changes_nothing() {
        let mut s = State::default();
        while s.tabs.names().len() < super::MAX_TABS {
            s.add_tab();
        }
        let open = s.tabs.active_name();
        s.compare_variant();
        assert_eq!((s.tabs.active_name(), s.tabs.cmp.as_deref()), (open, None));
        s.switch_tab(0);
        s.compare_variant();
        assert_eq!(
            (s.tabs.active_name().as_str(), s.tabs.cmp.as_deref()),
            ("A", None)
        );
    }

    #[test]
    fn tabs_naming_each_other_are_an_error() {
        let mut s = State {
            expr: "B".into(),
            ..Default::default()
        };
        s.add_tab();
        s.expr = "A".into();
        let e = s.tab_bindings().unwrap_err();
        assert!(e.contains("name each other"), "{e}");
    }
}
