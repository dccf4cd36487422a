//! Rule `xml-syntax`: the file is not well-formed XML (reported by the parsing stage, one diagnostic per error).

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic, Fix};
use crate::pipeline::xml::{known_namespace, CharRef, Syntax, Unclosed, Wanted};
use crate::pipeline::xml_limits::{
    Limit, MAX_ATTRIBUTES, MAX_NAMESPACES_IN_SCOPE, MAX_NAMESPACE_BINDINGS,
    MAX_NAMESPACE_DECLARATIONS,
};
use crate::rule::Rule;
use crate::values::text::{excerpt, group};

declare_rule! {
    /// ## What it does
    /// Reports every well-formedness error the XML parser finds, at its exact position, with a fix:
    /// a bare `&` (escape it as `&amp;`), an HTML entity such as `&nbsp;` (write `&#160;`), a bare `<`
    /// in text (`&lt;`), a closing tag that does not match (both tags are labelled), a truncated
    /// file (the unclosed elements are labelled), a second root element, text around the root
    /// element, characters XML forbids, an undeclared namespace prefix (with the namespace URI of
    /// the common sitemap extensions), a duplicate attribute, `--` in a comment.
    ///
    /// Most errors are patched over in memory so that the errors after them are reported in the
    /// same run: unescaped `&`, unknown entities, bad character references and forbidden characters
    /// (all found in one pass once the first is), a bare `<`, a misspelled or stray closing tag, a
    /// duplicate attribute, a bad comment, and text before the root element. Content after the
    /// root element is ignored once reported, so the sitemap itself is still checked. A truncated
    /// file, a missing closing tag or an undeclared prefix end the XML check, and the sitemap rules
    /// then do not run. At most 50 XML errors are shown one by one; the rest are counted.
    ///
    /// ## Why is this bad?
    /// A file that is not well-formed is not XML: search engines reject the whole sitemap ("Parsing
    /// error", "Invalid XML") and none of its URLs is read.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/search?q=a&page=2</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/search?q=a&amp;page=2</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// An unescaped `&` that starts no reference (`?a=1&b=2`) is escaped as `&amp;`: a safe fix, also
    /// in a file that is otherwise not well-formed (every such `&` is found in one scan). Nothing else is
    /// fixed: an unknown entity (`&nbsp;`), a missing closing tag or a stray `<` have several possible
    /// repairs, and only the writer knows which one is meant.
    ///
    /// ## References
    /// - sitemaps.org protocol, "Entity escaping": `&` `'` `"` `>` `<` must be entity-escaped
    /// - XML 1.0 §2.1 (well-formed documents), §2.4 (character data), §4.6 (predefined entities)
    pub static META = {
        name: "xml-syntax",
        category: Xml,
        severity: Error,
        fix: Safe,
        summary: "the file is not well-formed XML",
    }
}

impl Rule for Check {}

/// The file holds a byte-order mark and nothing else.
pub fn only_bom() -> Diagnostic {
    Diagnostic::new(&META, 0..0, "the file contains only a byte-order mark").with_help(ROOT_HELP)
}

/// Where a sitemap's root element is described, for help texts.
const ROOT_HELP: &str = "a sitemap is a `<urlset>` element, or a sitemap index a `<sitemapindex>` element, in the namespace `http://www.sitemaps.org/schemas/sitemap/0.9`";

/// The note on the last reported XML error when `unreported` more were found (`ok`: the parse
/// got to the end, so they were counted).
pub fn unreported_note(unreported: usize, ok: bool) -> String {
    if ok {
        format!(
            "{} more XML {} not reported one by one; fix these first",
            group(unreported as u64),
            if unreported == 1 {
                "error was"
            } else {
                "errors were"
            }
        )
    } else {
        "further XML errors were not reported; fix these first".to_string()
    }
}

/// A character as it reads in a message: itself, or escaped when it is invisible.
fn show_char(c: char) -> String {
    if c.is_control() || c == '\u{feff}' {
        format!("U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

/// The message of a closing tag that does not match the open element.
fn mismatch(actual: &str, expected: &str) -> String {
    format!("closing tag `</{actual}>` does not match the open element `<{expected}>`")
}

/// The diagnostic for what the XML stage found at `span`.
pub fn diagnostic(span: Range<usize>, problem: Syntax) -> Diagnostic {
    let d = |message: String| Diagnostic::new(&META, span.clone(), message);
    match problem {
        Syntax::LtInAttribute { labelled: false } => {
            d("`<` inside an attribute value".into()).with_help("write `&lt;` instead")
        }
        Syntax::LtInAttribute { labelled: true } => d("`<` inside an attribute value".into())
            .with_label("not allowed in attribute values")
            .with_help("write `&lt;` instead"),
        Syntax::DeclarationAfterRoot => d("XML declaration after the root element".into())
            .with_label("a second document starts here")
            .with_help("were two files concatenated? a sitemap holds one `<?xml …?>` declaration and one root element")
            .with_note("the rest of the file was not checked"),
        Syntax::DeclarationInMiddle => d("XML declaration in the middle of the file".into())
            .with_label("a declaration may only appear at the very start")
            .with_help("remove it: keep one `<?xml version=\"1.0\" encoding=\"UTF-8\"?>` as the first line"),
        Syntax::UndeclaredPrefix { prefix } => {
            let d = d(format!("namespace prefix `{prefix}` is not declared"))
                .with_label(format!("`{prefix}:` is bound to no namespace"));
            match known_namespace(&prefix) {
                Some(uri) if prefix == "mobile" => d
                    .with_help(format!(
                        "declare it on the root element: `xmlns:{prefix}=\"{uri}\"`"
                    ))
                    .with_note("Google no longer reads the mobile extension: removing the `<mobile:mobile/>` elements is fine too"),
                Some(uri) => d.with_help(format!(
                    "declare it on the root element: `xmlns:{prefix}=\"{uri}\"`"
                )),
                None => d.with_help(format!(
                    "declare it on the root element with `xmlns:{prefix}=\"…\"` and the extension's namespace URI"
                )),
            }
        }
        Syntax::DashesInComment { comment } => d("`--` inside a comment".into())
            .with_label("not allowed in a comment")
            .with_secondary(comment, "the comment")
            .with_help("XML comments may not contain `--` nor end with `-`: replace it, for example with `-`"),
        Syntax::CdataEndInText { labelled: false } => {
            d("`]]>` in text".into()).with_help("write `]]&gt;`")
        }
        Syntax::CdataEndInText { labelled: true } => d("`]]>` in text".into())
            .with_label("only allowed at the end of a CDATA section")
            .with_help("write `]]&gt;`"),
        Syntax::ExpectedString { expected } => d(format!("expected `{expected}`"))
            .with_label(format!("expected `{expected}` here")),
        Syntax::Parser(error) => d(format!("invalid XML: {error}")),
        Syntax::CloseTagMissing {
            actual,
            expected,
            open,
            literal,
        } => {
            let mut d = d(mismatch(&actual, &expected))
            .with_label(format!("expected `</{expected}>` before this"));
            let mut help = format!("add `</{expected}>` where the `<{expected}>` element ends");
            if let Some(open) = open {
                if literal {
                    help.push_str(&format!(
                        ", or write `&lt;{expected}` if the `<` is meant literally"
                    ));
                }
                d = d.with_secondary(open, format!("`<{expected}>` is never closed"));
            }
            d.with_help(help)
        }
        Syntax::CloseTagMisspelled {
            actual,
            expected,
            open,
        } => {
            let mut d = d(mismatch(&actual, &expected))
            .with_label(format!("expected `</{expected}>`"));
            if let Some(open) = open {
                d = d.with_secondary(open, format!("`<{expected}>` opened here"));
            }
            d.with_help(if actual.eq_ignore_ascii_case(&expected) {
                format!("write `</{expected}>`: tag names are case-sensitive")
            } else {
                format!("write `</{expected}>`")
            })
        }
        Syntax::CloseTagStray {
            actual,
            closed,
            open,
        } => {
            let mut d = d(format!("unexpected closing tag `</{actual}>`"))
                .with_label(format!("no `<{actual}>` is open here"));
            if let Some(closed) = closed {
                d = d.with_secondary(closed, format!("`<{actual}>` was already closed here"));
            } else if let Some((open, expected)) = open {
                d = d.with_secondary(open, format!("the open element is `<{expected}>`"));
            }
            d.with_help(format!(
                "remove `</{actual}>`, or add the `<{actual}>` it was meant to close"
            ))
        }
        Syntax::MalformedDeclaration { excerpt } => d(format!("malformed markup `{excerpt}`"))
            .with_label("not a comment, CDATA section or declaration")
            .with_help("a comment is written `<!-- … -->`, a CDATA section `<![CDATA[ … ]]>`"),
        Syntax::SecondRoot { root_end } => d("a second root element".into())
            .with_label("a document has one root element")
            .with_secondary(root_end, "the root element ends here")
            .with_note("the rest of the file was not checked")
            .with_help("put every `<url>` inside the one `<urlset>` (were two sitemaps concatenated?)"),
        Syntax::TextAfterRoot { excerpt, root_end } => {
            d(format!("text after the root element: `{excerpt}`"))
                .with_label("nothing but comments may follow the root element")
                .with_secondary(root_end, "the root element ends here")
                .with_note("the rest of the file was not checked")
                .with_help("remove everything after the closing root tag (is it debug output of the generator?)")
        }
        Syntax::TextBeforeRoot { excerpt } => d(format!("text before the root element: `{excerpt}`"))
            .with_label("only the XML declaration, comments and whitespace may come before the root element")
            .with_help("remove it: a sitemap starts with `<?xml version=\"1.0\" encoding=\"UTF-8\"?>` and `<urlset …>` (is it an error message printed by the generator?)"),
        Syntax::NotXml { excerpt, urls } => {
            let help = if urls {
                "a text sitemap (one URL per line) must be named `*.txt` or `*.txt.gz`: rename the file, or write it as XML (`<urlset …>`)"
            } else {
                "a sitemap is an XML document: `<?xml version=\"1.0\" encoding=\"UTF-8\"?>` and then `<urlset …>`; was an error page saved instead of the sitemap?"
            };
            d(format!("the file is text, not XML: `{excerpt}`"))
                .with_label("expected the root element `<urlset>` or `<sitemapindex>`")
                .with_help(help)
        }
        Syntax::MalformedMarkup => d("malformed markup".into())
            .with_label("the XML parser cannot read this")
            .with_help("check for a broken tag, an unescaped `<` or `&`, or a stray character"),
        Syntax::BareLt => d("unescaped `<` in text".into())
            .with_label("`<` starts a tag in XML")
            .with_help("write `&lt;` for a literal less-than sign (in a URL, `%3C`)"),
        Syntax::TagNotClosed { name, close } => {
            let shown = if close {
                format!("</{name}")
            } else {
                format!("<{name}")
            };
            d(format!("tag `{shown}` is not closed with `>`"))
                .with_label("expected `>` before the next `<`")
                .with_help(format!("write `{shown}>`"))
        }
        Syntax::MalformedCloseTag => d("malformed closing tag".into())
            .with_label("expected an element name right after `</`")
            .with_help("a closing tag is `</`, the element name and `>`, as in `</url>`"),
        Syntax::MalformedPi => d("malformed processing instruction".into())
            .with_label("expected a name right after `<?`")
            .with_help("a processing instruction is `<?name …?>`; remove it if it is not needed"),
        Syntax::InvalidElementName { excerpt } => d(format!("invalid element name `{excerpt}`"))
            .with_help("element names are letters, digits, `-`, `_` and `.`, with at most one `:` for a namespace prefix"),
        Syntax::ExpectedAttributeName { found } => d(format!(
            "expected an attribute name or `>`, found {}",
            show_char(found)
        ))
        .with_label("not allowed in a tag here")
        .with_help("attributes are written `name=\"value\"`; a tag ends with `>` or `/>`"),
        Syntax::AttributeValueNotClosed { quote } => d("attribute value is never closed".into())
            .with_label(format!("this `{quote}` has no closing `{quote}`"))
            .with_help(format!("add the closing `{quote}` at the end of the value")),
        Syntax::AttributeNotQuoted { name, value } => {
            d(format!("the value of attribute `{name}` is not quoted"))
                .with_label("expected `\"` before the value")
                .with_help(if value.chars().count() <= 100 {
                    format!("write `{name}=\"{value}\"`")
                } else {
                    format!("write `{name}=\"{}\"`", excerpt(&value))
                })
        }
        Syntax::MissingSpaceBeforeAttribute { excerpt } => {
            d(format!("missing whitespace before attribute `{excerpt}`"))
                .with_label("expected a space here")
                .with_help("separate attributes with a space: `a=\"1\" b=\"2\"`")
        }
        Syntax::AttributeWithoutValue { excerpt } => d(format!("attribute `{excerpt}` has no value"))
            .with_label("expected `=` and a quoted value")
            .with_help(format!(
                "XML attributes always have a value: `{excerpt}=\"…\"`"
            )),
        Syntax::ExpectedFound { wanted, found } => {
            let wanted = match wanted {
                Wanted::Byte(b) => format!("`{}`", b as char),
                Wanted::Text(t) => t,
            };
            d(format!("expected {wanted}, found {}", show_char(found)))
                .with_label(format!("expected {wanted} here"))
        }
        Syntax::DuplicateAttribute {
            name,
            namespace,
            first,
        } => {
            let message = if namespace {
                format!(
                    "namespace prefix `{}` is declared twice on one element",
                    shown(&name)
                )
            } else {
                format!("attribute `{}` appears twice in one tag", shown(&name))
            };
            let mut d = d(message).with_label("second occurrence");
            if let Some(first) = first {
                d = d.with_secondary(first, "first occurrence");
            }
            d.with_help("keep only one of them")
        }
        Syntax::UnclosedMarkup(what) => {
            let (what, open, close) = match what {
                Unclosed::Comment => ("comment", "<!--", "-->"),
                Unclosed::Cdata => ("CDATA section", "<![CDATA[", "]]>"),
                Unclosed::Pi => ("processing instruction", "<?", "?>"),
            };
            d(format!("unclosed {what}"))
                .with_label(format!("this `{open}` has no closing `{close}`"))
                .with_help(format!(
                    "close the {what} with `{close}`: everything after `{open}` up to the end of the file is part of it"
                ))
        }
        Syntax::UnexpectedEnd {
            root,
            inner,
            closing,
            open_count,
        } => {
            let mut d = d("unexpected end of file".into()).with_label("the file ends here");
            let mut help = String::from(
                "the file looks truncated (was the upload or the generator interrupted?)",
            );
            if let Some((root, name)) = root {
                d = d.with_secondary(root, format!("`<{name}>` is never closed"));
                let mut closes: Vec<String> = closing.iter().map(|n| format!("</{n}>")).collect();
                if open_count > closing.len() {
                    closes.push(format!("… ({open_count} closing tags in all)"));
                }
                if let Some((inner, inner_name)) = inner {
                    d = d.with_secondary(
                        inner,
                        format!("the file ends inside this `<{inner_name}>`"),
                    );
                }
                help.push_str(&format!(
                    ": a complete file would continue with `{}`",
                    closes.join("")
                ));
            }
            d.with_help(help)
        }
        Syntax::Empty => d("the file is empty".into()).with_help(ROOT_HELP),
        Syntax::OnlyWhitespace => {
            d("the file contains only whitespace".into()).with_help(ROOT_HELP)
        }
        Syntax::NoRoot => d("the file has no root element".into())
            .with_label("expected `<urlset>` or `<sitemapindex>` after this")
            .with_help(ROOT_HELP),
        Syntax::DtdEntity {
            name,
            declared,
            uses,
        } => {
            let d = d(format!(
                "entity `&{name};` is declared only in the DOCTYPE, which is not processed"
            ))
            .with_label("undefined without the DTD")
            .with_secondary(declared, format!("`{name}` is declared here"))
            .with_help("write the text itself instead of the entity, and remove the DOCTYPE");
            if uses > 1 {
                d.with_note(format!(
                    "`&{name};` is used {uses} times; the other uses are not reported one by one"
                ))
            } else {
                d
            }
        }
        Syntax::BareAmpersand { after, fix } => {
            let d = d("unescaped `&`".into())
                .with_label("`&` starts an entity reference in XML")
                .with_help(format!(
                    "write `&amp;{after}`: a literal `&` is written `&amp;` in XML, in URLs too (crawlers read it back as `&`)"
                ));
            match fix {
                Some(edit) => d.with_fix(Fix::safe("escape `&` as `&amp;`", vec![edit])),
                None => d,
            }
        }
        Syntax::MissingSemicolon { name } => {
            d(format!("entity reference `&{name}` lacks its closing `;`"))
                .with_label("expected `;` after the entity name")
                .with_help(format!("write `&{name};`"))
        }
        Syntax::UnknownEntity { name, html } => {
            let d = d(format!("unknown entity `&{name};`"))
                .with_label("XML defines only `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`");
            match html {
                Some(code) => {
                    let c = char::from_u32(code).unwrap_or('\u{FFFD}');
                    let shown = if c.is_whitespace() {
                        format!("U+{code:04X}")
                    } else {
                        format!("`{c}`")
                    };
                    d.with_help(format!(
                        "`&{name};` is an HTML entity; write the character itself ({shown}) or `&#{code};`; inside a URL, percent-encode it instead"
                    ))
                }
                None => d.with_help(format!(
                    "if `&` is meant literally, escape it: `&amp;{name};`"
                )),
            }
        }
        Syntax::BadCharRef { written, problem } => {
            let (message, label) = match problem {
                CharRef::Forbidden(c) => (
                    format!("character reference `{written}` names a character XML forbids"),
                    format!("U+{c:04X} is not allowed in XML, not even as a reference"),
                ),
                CharRef::OutOfRange => (
                    format!("character reference `{written}` is out of range"),
                    "Unicode ends at U+10FFFF".to_string(),
                ),
                CharRef::Malformed { digits } => (
                    format!("malformed character reference `{written}`"),
                    if digits {
                        "expected `;` after the digits".to_string()
                    } else {
                        "expected digits after `&#`".to_string()
                    },
                ),
            };
            d(message)
                .with_label(label)
                .with_help("write `&#` and decimal digits or `&#x` and hex digits, then `;`, for an allowed character; for a literal `&`, write `&amp;`")
        }
        Syntax::Forbidden { first, count, same } => {
            let what = match first {
                '\0' => " (NUL)",
                '\u{8}' => " (backspace)",
                '\u{b}' => " (vertical tab)",
                '\u{c}' => " (form feed)",
                '\u{1b}' => " (escape)",
                _ => "",
            };
            let message = if count == 1 {
                format!(
                    "character U+{:04X}{what} is not allowed in XML",
                    first as u32
                )
            } else if same {
                format!(
                    "{count} characters U+{:04X}{what} in a row are not allowed in XML",
                    first as u32
                )
            } else {
                format!("{count} control characters in a row are not allowed in XML")
            };
            d(message)
                .with_label("not an XML character")
                .with_help("remove it: XML 1.0 allows no control characters but tab, line feed and carriage return, not even as `&#…;` references")
        }
        Syntax::PiTargetColon { target } => {
            d(format!("processing instruction target `{target}` contains a colon"))
                .with_help("XML namespaces forbid colons in processing-instruction targets; rename it")
        }
        Syntax::PiNoSpace { target } => d(format!(
            "no space after the processing instruction target `{target}`"
        ))
        .with_help(format!(
            "write `<?{target} …?>` with a space between the target and its content"
        )),
        Syntax::ElementColon => d("element name starts with a colon".into())
            .with_help("a qualified name is `prefix:local` or `local`; remove the colon"),
        Syntax::DeclaresXmlns => d("the prefix `xmlns` cannot be declared".into())
            .with_help("`xmlns` is reserved for namespace declarations; remove this attribute"),
        Syntax::UndeclaresPrefix { prefix } => d(format!(
            "`xmlns:{prefix}=\"\"` undeclares a prefix, which XML 1.0 does not allow"
        ))
        .with_help(format!(
            "remove the declaration, or give `{prefix}` a namespace URI"
        )),
    }
}

/// An element beyond one of the limits the pre-scan holds (see [`crate::pipeline::xml_limits`]):
/// the file is not checked further.
pub fn beyond_limit(span: Range<usize>, limit: Limit) -> Diagnostic {
    let (message, help) = match limit {
        Limit::Attributes => (
            format!("an element with more than {MAX_ATTRIBUTES} attributes"),
            format!(
                "sitemap elements need a few attributes; sitemap-lint parses at most {MAX_ATTRIBUTES} per element (each is compared with every other), so the file was not checked further"
            ),
        ),
        Limit::NamespacesInScope => (
            format!("more than {MAX_NAMESPACES_IN_SCOPE} namespace declarations in scope"),
            format!(
                "declare only the namespaces the sitemap uses (a handful), once on the root element; sitemap-lint parses at most {MAX_NAMESPACES_IN_SCOPE} in scope, so the file was not checked further"
            ),
        ),
        Limit::NamespaceBindings => (
            format!("more than {MAX_NAMESPACE_BINDINGS} distinct namespace bindings in one file"),
            format!(
                "declare only the namespaces the sitemap uses (a handful), once on the root element; sitemap-lint parses at most {MAX_NAMESPACE_BINDINGS} distinct prefix and URI pairs per file, so the file was not checked further"
            ),
        ),
        Limit::NamespaceDeclarations => (
            format!("more than {MAX_NAMESPACE_DECLARATIONS} namespace declarations in one file"),
            format!(
                "declare each namespace once, on the root element; sitemap-lint parses at most {MAX_NAMESPACE_DECLARATIONS} declarations per file, so the file was not checked further"
            ),
        ),
    };
    Diagnostic::new(&META, span, message)
        .with_label("beyond the limit")
        .with_help(help)
}
