/**
 * A viewer's highlights: the learner's saved ones in this lesson, the colour and note being
 * chosen for the current selection, and saving or deleting one with the toasts that say how it
 * went. Both readers use it; they only supply the selection's locator and text.
 */
import { useState } from 'react';
import { toast } from 'sonner';
import { useAppSession } from '@/lib/app-session';
import {
  useHighlightMutations,
  useHighlights,
  type Highlight,
  type Locator,
} from './api/highlights';
import type { HighlightDraft } from './highlight-ui';
import type { ReaderLesson } from './api/get-reader-lesson';

export function useHighlighting(lesson: ReaderLesson) {
  const app = useAppSession();
  const highlights = useHighlights(app.userId, lesson.id);
  const { create, remove } = useHighlightMutations(app.userId, lesson.id);
  const [draft, setDraft] = useState<HighlightDraft>({ colour: 'yellow', note: '' });

  /** Saves the selection; `onSaved` clears the viewer's selection once it is stored. */
  function save(selection: { locator: Locator; text: string }, onSaved: () => void) {
    create.mutate(
      {
        courseId: lesson.courseId,
        lessonId: lesson.id,
        lessonTitle: lesson.title,
        locator: selection.locator,
        text: selection.text,
        colour: draft.colour,
        note: draft.note,
      },
      {
        onSuccess: () => {
          toast.success(draft.note.trim() ? 'Highlight and note saved.' : 'Highlight saved.');
          setDraft((d) => ({ ...d, note: '' }));
          onSaved();
        },
        onError: (reason) => toast.error(`Could not save the highlight: ${reason.message}`),
      },
    );
  }

  function discard(highlight: Highlight) {
    remove.mutate(highlight.id, {
      onSuccess: () => toast.success('Highlight deleted.'),
      onError: (reason) => toast.error(`Could not delete it: ${reason.message}`),
    });
  }

  return {
    list: highlights.data ?? [],
    draft,
    setDraft,
    clearNote: () => setDraft((d) => ({ ...d, note: '' })),
    saving: create.isPending,
    save,
    discard,
  };
}
