// CodeMirror 6 with YAML highlighting, as a controlled Preact component: a new `value` from the
// outside replaces the text, edits are reported through `onChange`.
import { useEffect, useRef } from 'preact/hooks';
import { basicSetup, EditorView } from 'codemirror';
import { yaml } from '@codemirror/lang-yaml';

export interface YamlEditorProps {
  value: string;
  onChange: (text: string) => void;
  testId?: string;
}

export function YamlEditor({ value, onChange, testId }: YamlEditorProps) {
  const box = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => {
    view.current = new EditorView({
      doc: value,
      extensions: [basicSetup, yaml(), EditorView.updateListener.of((u) => { if (u.docChanged) changed.current(u.state.doc.toString()); })],
      parent: box.current!,
    });
    return () => view.current?.destroy();
    // The editor is made once; `value` changes are applied below.
  }, []);
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);
  return <div class="editor" data-testid={testId} ref={box} />;
}
