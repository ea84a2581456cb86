import { describe, expect, it } from 'vitest';
import { EditorError, editorError } from './editor-error';

describe('editorError', () => {
  const constraints = { questions_hints_check: { field: 'hints', message: 'Give 2 to 4 hints.' } };

  it('places a check violation under the field its constraint guards', () => {
    const error = editorError(
      {
        code: '23514',
        message:
          'new row for relation "questions" violates check constraint "questions_hints_check"',
      },
      constraints,
    );
    expect(error).toBeInstanceOf(EditorError);
    expect([error.field, error.message]).toEqual(['hints', 'Give 2 to 4 hints.']);
  });

  it('turns 413 into advice on the large field and 42501 into who may', () => {
    const large = editorError({ code: 'PGRST413', message: 'Payload Too Large' }, {}, 'body');
    expect(large.field).toBe('body');
    expect(large.message).toMatch(/1 MB/);
    expect(editorError({ code: '42501', message: 'denied' }).message).toMatch(/only instructors/);
  });

  it('keeps any other message as the service said it, for the whole form', () => {
    const other = editorError({ code: '22023', message: 'question_ids must name questions' });
    expect([other.field, other.message]).toEqual([undefined, 'question_ids must name questions']);
  });
});
