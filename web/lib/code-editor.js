// The Python editor of <pe-code-exercise>: CodeMirror 6 with line numbers,
// Python highlighting, Tab / Shift-Tab to indent, undo and redo, and Escape
// to leave it (focus goes to the widget's next control), so a keyboard user
// is never trapped. Bundled by scripts/build-python.mjs into
// web/gen/code-editor.js (one module, imported on the first code exercise
// on screen); its byte cost is in docs/embedding.md.
//
// CodeMirror writes its styles as constructable stylesheets when the engine
// has them (style-mod's adoptedStyleSheets), into the shadow root it is
// given, so a strict style-src 'self' holds.
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle, indentUnit, bracketMatching } from '@codemirror/language';
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
  '.cm-scroller': { fontFamily: 'var(--pe-mono)', maxHeight: '28em', overflow: 'auto' },
  '.cm-gutters': { background: 'var(--pe-panel)', color: 'var(--pe-muted)', border: 'none' },
  '.cm-activeLine, .cm-activeLineGutter': { background: 'color-mix(in srgb, var(--pe-accent) 8%, transparent)' },
});

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
        python(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
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
  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
  };
}
