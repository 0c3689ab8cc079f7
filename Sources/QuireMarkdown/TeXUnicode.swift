/// LaTeX math written readably in plain Unicode for a terminal: `x^2 + y_1 \leq \alpha` becomes
/// `x² + y₁ ≤ α`, `\frac{a+b}{c}` becomes `(a+b)/c`, `\sqrt{2}` becomes `√2`.
///
/// It covers what notes use most: Greek letters, common operators, relations, arrows and set
/// symbols, sub- and superscripts (Unicode's small digits and letters, else `_(…)` and `^(…)`),
/// fractions, roots, `\text{…}` and the font commands, spacing commands and `\left`/`\right`.
/// A command it does not know, or braces that do not match, give nil: the caller keeps the source.
/// Linear in the length of the input.
public enum TeXUnicode {
    /// The math as Unicode text, or nil when some of it cannot be rendered.
    public static func render(_ tex: String) -> String? {
        guard tex.utf8.count <= 4096 else { return nil }
        var reader = Reader(Array(tex.unicodeScalars))
        guard let out = reader.sequence(until: nil), reader.atEnd else { return nil }
        return collapseSpaces(out)
    }

    private static func collapseSpaces(_ s: String) -> String {
        var out = ""
        var lastSpace = true
        for c in s {
            if c == " " {
                if !lastSpace { out.append(c) }
                lastSpace = true
            } else {
                out.append(c)
                lastSpace = false
            }
        }
        while out.last == " " { out.removeLast() }
        return out
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var i = 0
        /// Groups open; deeper input is refused, so the recursion stays shallow.
        var depth = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { i >= scalars.count }

        /// Atoms up to `close` (a `}`), or to the end when nil; nil on an error.
        mutating func sequence(until close: Unicode.Scalar?) -> String? {
            var out = ""
            while i < scalars.count {
                let c = scalars[i]
                if let close, c == close { return out }
                if c == "}" { return nil }
                guard let atom = atom() else { return nil }
                out += atom
            }
            return close == nil ? out : nil
        }

        /// One element: a group, a command, a script, or a character.
        mutating func atom() -> String? {
            let c = scalars[i]
            switch c {
            case "{":
                return group()
            case "\\":
                return command()
            case "^", "_":
                i += 1
                guard i < scalars.count, let arg = argument() else { return nil }
                return script(arg, superscript: c == "^")
            case "~":
                i += 1
                return " "
            case "&":
                i += 1
                return " "
            default:
                i += 1
                switch c {
                case "-": return "−"
                case "*": return "∗"
                case "'": return "′"
                default: return String(c)
                }
            }
        }

        /// `{…}` without its braces.
        mutating func group() -> String? {
            guard i < scalars.count, scalars[i] == "{", depth < 32 else { return nil }
            depth += 1
            defer { depth -= 1 }
            i += 1
            guard let inner = sequence(until: "}"), i < scalars.count else { return nil }
            i += 1
            return inner
        }

        /// A command's argument or a script's: a group, a command, or one character.
        mutating func argument() -> String? {
            while i < scalars.count, scalars[i] == " " { i += 1 }
            guard i < scalars.count else { return nil }
            switch scalars[i] {
            case "{": return group()
            case "\\": return command()
            case "}", "^", "_": return nil
            default:
                let c = scalars[i]
                i += 1
                return c == "-" ? "−" : String(c)
            }
        }

        mutating func command() -> String? {
            i += 1
            guard i < scalars.count else { return nil }
            var name = ""
            while i < scalars.count, scalars[i].properties.isAlphabetic, scalars[i].isASCII {
                name.unicodeScalars.append(scalars[i])
                i += 1
            }
            if name.isEmpty {
                // One-character commands: spacing and escaped characters.
                let c = scalars[i]
                i += 1
                switch c {
                case ",", ";", ":", " ", "!": return c == "!" ? "" : " "
                case "{", "}", "$", "%", "&", "#", "_", "\\": return c == "\\" ? " " : String(c)
                default: return nil
                }
            }
            if let symbol = TeXUnicode.symbols[name] { return symbol }
            switch name {
            case "frac", "dfrac", "tfrac":
                guard let a = argument(), let b = argument() else { return nil }
                return parenthesized(a) + "/" + parenthesized(b)
            case "sqrt":
                guard let a = argument() else { return nil }
                return "√" + parenthesized(a)
            case "text", "textrm", "textit", "textbf", "mathrm", "mathit", "mathbf", "mathsf", "mathtt",
                 "operatorname", "mbox", "mathcal", "mathbb", "boldsymbol":
                guard let a = argument() else { return nil }
                if name == "mathbb", let doubled = TeXUnicode.doubleStruck[a] { return doubled }
                return a
            case "left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr":
                guard i < scalars.count else { return nil }
                if scalars[i] == "\\" {
                    return command()
                }
                let c = scalars[i]
                i += 1
                return c == "." ? "" : String(c)
            case "quad", "qquad":
                return "  "
            case "displaystyle", "textstyle", "limits", "nolimits":
                return ""
            case "overline", "bar":
                guard let a = argument() else { return nil }
                return a.count == 1 ? a + "\u{0305}" : a
            case "hat":
                guard let a = argument() else { return nil }
                return a.count == 1 ? a + "\u{0302}" : a
            case "vec":
                guard let a = argument() else { return nil }
                return a.count == 1 ? a + "\u{20D7}" : a
            case "dot":
                guard let a = argument() else { return nil }
                return a.count == 1 ? a + "\u{0307}" : a
            default:
                return nil
            }
        }

        /// Parentheses around a part of more than one character (`(a+b)/c`).
        func parenthesized(_ s: String) -> String {
            s.count <= 1 || s.allSatisfy({ $0.isNumber }) || s.allSatisfy({ $0.isLetter }) ? s : "(" + s + ")"
        }

        /// `²`, `ₙ`, or `^(…)` / `_(…)` when some character has no small form.
        func script(_ s: String, superscript: Bool) -> String {
            let table = superscript ? TeXUnicode.superscripts : TeXUnicode.subscripts
            var out = ""
            for c in s {
                guard let small = table[c] else {
                    let mark = superscript ? "^" : "_"
                    return s.count == 1 ? mark + s : mark + "(" + s + ")"
                }
                out.append(small)
            }
            return out
        }
    }

    static let symbols: [String: String] = [
        "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
        "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
        "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ",
        "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
        "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ",
        "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
        "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "equiv": "≡",
        "sim": "∼", "simeq": "≃", "cong": "≅", "propto": "∝", "ll": "≪", "gg": "≫", "lt": "<", "gt": ">",
        "times": "×", "cdot": "·", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗", "star": "⋆", "circ": "∘",
        "bullet": "•", "oplus": "⊕", "otimes": "⊗",
        "infty": "∞", "partial": "∂", "nabla": "∇", "sum": "∑", "prod": "∏", "int": "∫", "iint": "∬",
        "oint": "∮", "lim": "lim", "log": "log", "ln": "ln", "exp": "exp", "sin": "sin", "cos": "cos",
        "tan": "tan", "max": "max", "min": "min", "det": "det", "gcd": "gcd", "mod": "mod", "deg": "deg",
        "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃", "supseteq": "⊇",
        "cup": "∪", "cap": "∩", "setminus": "∖", "emptyset": "∅", "varnothing": "∅", "forall": "∀",
        "exists": "∃", "nexists": "∄", "neg": "¬", "lnot": "¬", "land": "∧", "wedge": "∧", "lor": "∨",
        "vee": "∨", "top": "⊤", "bot": "⊥", "perp": "⊥", "parallel": "∥", "mid": "∣", "angle": "∠",
        "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔",
        "Rightarrow": "⇒", "implies": "⟹", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "iff": "⟺",
        "mapsto": "↦", "uparrow": "↑", "downarrow": "↓", "longrightarrow": "⟶",
        "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "prime": "′",
        "degree": "°", "hbar": "ℏ", "ell": "ℓ", "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ",
        "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
        "lbrace": "{", "rbrace": "}", "vert": "|", "Vert": "‖", "backslash": "\\",
    ]

    static let doubleStruck: [String: String] = [
        "R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "P": "ℙ",
    ]

    static let superscripts: [Character: Character] = [
        "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹",
        "+": "⁺", "−": "⁻", "-": "⁻", "=": "⁼", "(": "⁽", ")": "⁾", "a": "ᵃ", "b": "ᵇ", "c": "ᶜ", "d": "ᵈ",
        "e": "ᵉ", "f": "ᶠ", "g": "ᵍ", "h": "ʰ", "i": "ⁱ", "j": "ʲ", "k": "ᵏ", "l": "ˡ", "m": "ᵐ", "n": "ⁿ",
        "o": "ᵒ", "p": "ᵖ", "r": "ʳ", "s": "ˢ", "t": "ᵗ", "u": "ᵘ", "v": "ᵛ", "w": "ʷ", "x": "ˣ", "y": "ʸ",
        "z": "ᶻ", "T": "ᵀ", "′": "′",
    ]

    static let subscripts: [Character: Character] = [
        "0": "₀", "1": "₁", "2": "₂", "3": "₃", "4": "₄", "5": "₅", "6": "₆", "7": "₇", "8": "₈", "9": "₉",
        "+": "₊", "−": "₋", "-": "₋", "=": "₌", "(": "₍", ")": "₎", "a": "ₐ", "e": "ₑ", "h": "ₕ", "i": "ᵢ",
        "j": "ⱼ", "k": "ₖ", "l": "ₗ", "m": "ₘ", "n": "ₙ", "o": "ₒ", "p": "ₚ", "r": "ᵣ", "s": "ₛ", "t": "ₜ",
        "u": "ᵤ", "v": "ᵥ", "x": "ₓ",
    ]
}
