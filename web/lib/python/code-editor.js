// The Python editor of <pe-code-exercise>: CodeMirror 6 with line numbers,
// Python highlighting, lines that wrap, Tab / Shift-Tab to indent, undo and redo, and Escape
// to leave it (focus goes to the widget's next control), so a keyboard user
// is never trapped. Bundled by scripts/build/build-python.mjs into
// web/gen/code-editor.js (one module, imported on the first code exercise
// on screen); its byte cost is in docs/embedding.md.
//
// CodeMirror writes its styles as constructable stylesheets when the engine
// has them (style-mod's adoptedStyleSheets), into the shadow root it is
// given, so a strict style-src 'self' holds.
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, HighlightStyle, indentUnit, bracketMatching } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';
import { python } from '@codemirror/lang-python';

const theme = EditorView.theme({
  '&': {
    fontSize: '16px', // 16 px: a phone does not zoom the page when the editor takes focus
    border: '1px solid var(--pe-border)',
    borderRadius: '6px',
    background: 'var(--pe-panel)',
    color: 'var(--pe-fg)',
  },
  '&.cm-focused': { outline: '2px solid var(--pe-accent)', outlineOffset: '1px' },
  '.cm-content': { fontFamily: 'var(--pe-mono)', caretColor: 'var(--pe-fg)', minHeight: '8em' },
  // the editor grows with the code: no scrolling region of its own (a phone scrolls the page)
  // (CodeMirror's scroller is overflow-x: auto: it takes the widgets' scroll cue, class scroll-cue)
  '.cm-scroller': { fontFamily: 'var(--pe-mono)', '--pe-scroll-bg': 'var(--pe-panel)' },
  '.cm-gutters': { background: 'var(--pe-panel)', color: 'var(--pe-muted)', border: 'none' },
  '.cm-activeLine, .cm-activeLineGutter': { background: 'color-mix(in srgb, var(--pe-accent) 8%, transparent)' },
});

// Python's colours from the page's own text colours (--pe-*), so they keep
// their contrast in the light and the dark theme (CodeMirror's default
// style is made for a light background only)
const highlight = HighlightStyle.define([
  {
    tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword],
    color: 'var(--pe-accent)',
    fontWeight: '600',
  },
  { tag: [t.string, t.docString, t.special(t.string)], color: 'var(--pe-good)' },
  { tag: [t.number, t.bool, t.null], color: 'var(--pe-bad)' },
  { tag: [t.comment, t.lineComment], color: 'var(--pe-muted)', fontStyle: 'italic' },
  { tag: [t.function(t.definition(t.variableName)), t.definition(t.variableName)], fontWeight: '600' },
]);

/**
 * An editor in `parent` (inside the shadow root `root`) holding `doc`.
 * onEscape(): called when the learner presses Escape (the widget moves the
 * focus on); onChange(): after each edit. -> { getCode, setCode, focus, view }
 */
export function createEditor({ parent, root, doc, label, onEscape = () => {}, onChange = () => {} }) {
  const view = new EditorView({
    parent,
    root,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        bracketMatching(),
        indentUnit.of('    '),
        EditorState.tabSize.of(4),
        // long lines wrap: nothing in the editor scrolls sideways, on a 375 px phone either
        EditorView.lineWrapping,
        python(),
        syntaxHighlighting(highlight),
        keymap.of([
          { key: 'Escape', run: () => (onEscape(), true) },
          indentWithTab,
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        EditorView.contentAttributes.of({
          'aria-label': label,
          autocapitalize: 'off',
          autocorrect: 'off',
          spellcheck: 'false',
        }),
        EditorView.updateListener.of((u) => u.docChanged && onChange()),
        theme,
      ],
    }),
  });
  view.scrollDOM.classList.add('scroll-cue');
  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
  };
}
