// Typed answers read as formulas: a number or an expression such as
// 2*pi*b^(2*i/d) becomes a tree, is shown back as TeX (so the learner sees how
// it was read), is evaluated, and is judged against a reference by comparing
// values at random points, as WeBWorK does, so every equivalent form counts.
//
// Nothing typed is ever run or becomes markup: there is no eval and no
// new Function (the page runs under a strict CSP), names are looked up in a
// Map (so "constructor" or "__proto__" are unknown names, not properties), the
// TeX is built only from digits, the names' own TeX and fixed commands, and
// bad input gives a plain-text message, never a throw. Size caps come first:
// the length before any work, nesting while parsing, so no input can hang the
// page or overflow the stack.
//
// One file per step: expression-tokens.js reads the characters,
// expression-parse.js the tree (its grammar is there),
// expression-tex.js writes it back, expression-eval.js evaluates it and
// expression-check.js judges it. This module is what the page imports.

export { parseExpression } from './expression-parse.js';
export { evaluateExpression } from './expression-eval.js';
export { sameFunction } from './expression-check.js';
// What expression-tex.js writes back is part of this module's interface
export { texOf } from './expression-tex.js';
