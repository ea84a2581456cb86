/**
 * The module manager: a course's modules and their lessons in order. Each moves by drag and
 * drop (the grip) or by keyboard (its Move up / Move down buttons); a lesson moves to another
 * module with its "Move to module" select (the end of that module). A live region says where
 * it went, focus stays on the control used, and the new order is saved through
 * reorder_modules / reorder_lessons at once (shown before the server answers, undone if it
 * refuses). Modules are added, renamed and deleted here; lessons open their own editor.
 */
import { useEffect, useRef, useState, type DragEvent, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowDown, ArrowUp, GripVertical, ListChecks, Pencil, Plus } from 'lucide-react';
import { toast } from 'sonner';
import { EmptyState } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import { cn } from '@/lib/utils';
import { useDeleteModule } from './api/delete-module';
import type { CourseOutline, EditorLesson, EditorModule } from './api/get-course-outline';
import { useReorderLessons } from './api/reorder-lessons';
import { useReorderModules } from './api/reorder-modules';
import { moduleSchema, useSaveModule, type ModuleInput } from './api/save-module';
import { ConfirmDelete } from './confirm-delete';
import { Field, FormError, saveErrors, zodFieldErrors, type FieldErrors } from './editor-form';
import { editorPaths } from './editor-paths';
import { kindIcons, kindLabels } from './editor-ui';
import { moveItem } from './move-item';

type Dragged = { kind: 'module'; id: string } | { kind: 'lesson'; id: string; moduleId: string };

const moveButtonId = (id: string, direction: 'up' | 'down') => `move-${id}-${direction}`;
const moveToModuleId = (id: string) => `move-${id}-to-module`;

export function ModuleManager({ course }: { course: CourseOutline }) {
  const session = useAppSession();
  const reorderModules = useReorderModules();
  const reorderLessons = useReorderLessons();
  const [announcement, setAnnouncement] = useState('');
  const [dragged, setDragged] = useState<Dragged | null>(null);
  // The button to focus once the moved row is shown in its new place (moving a row in the
  // DOM takes focus away from it).
  const focusAfterMove = useRef<{ id: string; index: number; direction: 'up' | 'down' } | null>(
    null,
  );
  // The lesson whose "Move to module" select takes focus once it shows in its new module.
  const focusAfterModuleMove = useRef<{ id: string; moduleId: string } | null>(null);
  const pending = reorderModules.isPending || reorderLessons.isPending;

  useEffect(() => {
    const moved = focusAfterModuleMove.current;
    if (moved) {
      const there = course.modules.find((m) => m.id === moved.moduleId);
      if (there?.lessons.some((l) => l.id === moved.id)) {
        focusAfterModuleMove.current = null;
        document.getElementById(moveToModuleId(moved.id))?.focus();
      }
    }
    const target = focusAfterMove.current;
    if (!target || positionOf(course, target.id) !== target.index) return;
    focusAfterMove.current = null;
    const preferred = document.getElementById(moveButtonId(target.id, target.direction));
    const other = document.getElementById(
      moveButtonId(target.id, target.direction === 'up' ? 'down' : 'up'),
    );
    const button =
      preferred instanceof HTMLButtonElement && !preferred.disabled ? preferred : other;
    button?.focus();
  });

  function moveModule(from: number, to: number, direction?: 'up' | 'down') {
    const ids = course.modules.map((m) => m.id);
    const next = moveItem(ids, from, to);
    const module = course.modules[from];
    if (!module || next.join() === ids.join()) return;
    const position = next.indexOf(module.id) + 1;
    if (direction) focusAfterMove.current = { id: module.id, index: position - 1, direction };
    reorderModules.mutate(
      { userId: session.userId, courseId: course.id, moduleIds: next },
      {
        onSuccess: () => {
          setAnnouncement(
            `Module “${module.title}” moved to position ${position} of ${next.length}.`,
          );
          toast.success('Module order saved.');
        },
        onError: (error) => {
          setAnnouncement(`Module “${module.title}” was not moved.`);
          toast.error(`Could not save the module order: ${error.message}`);
        },
      },
    );
  }

  function moveLesson(module: EditorModule, from: number, to: number, direction?: 'up' | 'down') {
    const ids = module.lessons.map((l) => l.id);
    const next = moveItem(ids, from, to);
    const lesson = module.lessons[from];
    if (!lesson || next.join() === ids.join()) return;
    const position = next.indexOf(lesson.id) + 1;
    if (direction) focusAfterMove.current = { id: lesson.id, index: position - 1, direction };
    reorderLessons.mutate(
      { userId: session.userId, courseId: course.id, moduleId: module.id, lessonIds: next },
      {
        onSuccess: () => {
          setAnnouncement(
            `Lesson “${lesson.title}” moved to position ${position} of ${next.length} in “${module.title}”.`,
          );
          toast.success('Lesson order saved.');
        },
        onError: (error) => {
          setAnnouncement(`Lesson “${lesson.title}” was not moved.`);
          toast.error(`Could not save the lesson order: ${error.message}`);
        },
      },
    );
  }

  function moveLessonToModule(from: EditorModule, lesson: EditorLesson, targetId: string) {
    const target = course.modules.find((m) => m.id === targetId);
    if (!target || target.id === from.id) return;
    const next = [...target.lessons.map((l) => l.id), lesson.id];
    focusAfterModuleMove.current = { id: lesson.id, moduleId: target.id };
    reorderLessons.mutate(
      { userId: session.userId, courseId: course.id, moduleId: target.id, lessonIds: next },
      {
        onSuccess: () => {
          setAnnouncement(
            `Lesson “${lesson.title}” moved to “${target.title}”, position ${next.length} of ${next.length}.`,
          );
          toast.success(`Lesson moved to “${target.title}”.`);
        },
        onError: (error) => {
          focusAfterModuleMove.current = null;
          setAnnouncement(`Lesson “${lesson.title}” was not moved.`);
          toast.error(`Could not move the lesson: ${error.message}`);
        },
      },
    );
  }

  function dropOnModule(event: DragEvent, index: number) {
    if (dragged?.kind !== 'module') return;
    event.preventDefault();
    const from = course.modules.findIndex((m) => m.id === dragged.id);
    setDragged(null);
    moveModule(from, index);
  }

  function dropOnLesson(event: DragEvent, module: EditorModule, index: number) {
    if (dragged?.kind !== 'lesson' || dragged.moduleId !== module.id) return;
    event.preventDefault();
    event.stopPropagation();
    const from = module.lessons.findIndex((l) => l.id === dragged.id);
    setDragged(null);
    moveLesson(module, from, index);
  }

  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        Drag a module or lesson by its grip, or use its arrow buttons, to change the order students
        follow; move a lesson to another module with its “Move to module” list.
        {pending && <span className="ml-1 font-medium text-foreground">Saving the order…</span>}
      </p>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {course.modules.length === 0 ? (
        <EmptyState>
          This course has no modules yet. Add the first module below; lessons, bank questions and
          quizzes go inside modules.
        </EmptyState>
      ) : (
        <ol className="grid gap-3" aria-label="Modules">
          {course.modules.map((module, index) => (
            <li
              key={module.id}
              aria-label={`Module ${index + 1}: ${module.title}`}
              onDragOver={(event) => {
                if (dragged?.kind === 'module') event.preventDefault();
              }}
              onDrop={(event) => dropOnModule(event, index)}
              className={cn(
                'rounded-lg border bg-background p-3',
                dragged?.kind === 'module' && dragged.id === module.id && 'opacity-50',
              )}
            >
              <ModuleCard
                course={course}
                module={module}
                index={index}
                count={course.modules.length}
                onMove={(to, direction) => moveModule(index, to, direction)}
                onDragStart={(event) => {
                  startDrag(event, module.id);
                  setDragged({ kind: 'module', id: module.id });
                }}
                onDragEnd={() => setDragged(null)}
              >
                {module.lessons.length === 0 ? (
                  <EmptyState>
                    No lessons in this module yet. Add one: text written in Markdown, a PDF or ePub
                    file, or a video.
                  </EmptyState>
                ) : (
                  <ol className="grid gap-1.5" aria-label={`Lessons of ${module.title}`}>
                    {module.lessons.map((lesson, lessonIndex) => (
                      <LessonRow
                        key={lesson.id}
                        courseId={course.id}
                        lesson={lesson}
                        index={lessonIndex}
                        count={module.lessons.length}
                        dragging={dragged?.kind === 'lesson' && dragged.id === lesson.id}
                        onMove={(to, direction) => moveLesson(module, lessonIndex, to, direction)}
                        otherModules={course.modules.filter((m) => m.id !== module.id)}
                        onMoveToModule={(targetId) => moveLessonToModule(module, lesson, targetId)}
                        onDragStart={(event) => {
                          event.stopPropagation();
                          startDrag(event, lesson.id);
                          setDragged({ kind: 'lesson', id: lesson.id, moduleId: module.id });
                        }}
                        onDragEnd={() => setDragged(null)}
                        onDragOver={(event) => {
                          if (dragged?.kind === 'lesson' && dragged.moduleId === module.id) {
                            event.preventDefault();
                            event.stopPropagation();
                          }
                        }}
                        onDrop={(event) => dropOnLesson(event, module, lessonIndex)}
                      />
                    ))}
                  </ol>
                )}
              </ModuleCard>
            </li>
          ))}
        </ol>
      )}
      <AddModule courseId={course.id} />
    </div>
  );
}

/** Where a module or lesson stands in its list, as the outline shows it now. */
function positionOf(course: CourseOutline, id: string): number {
  const module = course.modules.findIndex((m) => m.id === id);
  if (module >= 0) return module;
  for (const m of course.modules) {
    const lesson = m.lessons.findIndex((l) => l.id === id);
    if (lesson >= 0) return lesson;
  }
  return -1;
}

/** Drag data and image: the whole row follows the pointer, not only the grip. */
function startDrag(event: DragEvent, id: string) {
  event.dataTransfer.effectAllowed = 'move';
  event.dataTransfer.setData('text/plain', id);
  const row = (event.currentTarget as HTMLElement).closest('li');
  if (row) event.dataTransfer.setDragImage(row, 16, 16);
}

function Grip({
  onDragStart,
  onDragEnd,
}: {
  onDragStart: (event: DragEvent) => void;
  onDragEnd: () => void;
}) {
  return (
    <span
      draggable
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      aria-hidden="true"
      title="Drag to reorder"
      className="cursor-grab rounded p-1 text-muted-foreground hover:bg-accent active:cursor-grabbing"
    >
      <GripVertical className="size-4" />
    </span>
  );
}

function MoveButtons({
  id,
  name,
  index,
  count,
  onMove,
}: {
  id: string;
  name: string;
  index: number;
  count: number;
  onMove: (to: number, direction: 'up' | 'down') => void;
}) {
  return (
    <span className="flex shrink-0 gap-1">
      <Button
        id={moveButtonId(id, 'up')}
        type="button"
        size="icon"
        variant="outline"
        className="size-8"
        aria-label={`Move ${name} up`}
        disabled={index === 0}
        onClick={() => onMove(index - 1, 'up')}
      >
        <ArrowUp aria-hidden="true" />
      </Button>
      <Button
        id={moveButtonId(id, 'down')}
        type="button"
        size="icon"
        variant="outline"
        className="size-8"
        aria-label={`Move ${name} down`}
        disabled={index === count - 1}
        onClick={() => onMove(index + 1, 'down')}
      >
        <ArrowDown aria-hidden="true" />
      </Button>
    </span>
  );
}

function ModuleCard({
  course,
  module,
  index,
  count,
  onMove,
  onDragStart,
  onDragEnd,
  children,
}: {
  course: CourseOutline;
  module: EditorModule;
  index: number;
  count: number;
  onMove: (to: number, direction: 'up' | 'down') => void;
  onDragStart: (event: DragEvent) => void;
  onDragEnd: () => void;
  children: ReactNode;
}) {
  const session = useAppSession();
  const [editing, setEditing] = useState(false);
  const remove = useDeleteModule();

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-start gap-2">
        <Grip onDragStart={onDragStart} onDragEnd={onDragEnd} />
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium text-muted-foreground">Module {index + 1}</p>
          <h3 className="font-semibold break-words">{module.title}</h3>
          {module.summary && !editing && (
            <p className="mt-1 text-sm text-muted-foreground">{module.summary}</p>
          )}
        </div>
        <MoveButtons
          id={module.id}
          name={`module “${module.title}”`}
          index={index}
          count={count}
          onMove={onMove}
        />
      </div>
      {editing ? (
        <ModuleForm
          courseId={course.id}
          moduleId={module.id}
          initial={{ title: module.title, summary: module.summary }}
          onDone={() => setEditing(false)}
        />
      ) : (
        <div className="flex flex-wrap gap-1">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setEditing(true)}
            aria-label={`Rename module “${module.title}”`}
          >
            <Pencil aria-hidden="true" />
            <span className="max-sm:sr-only">Rename</span>
          </Button>
          <ConfirmDelete
            label={`Delete module “${module.title}”`}
            title={`Delete “${module.title}”?`}
            description={`Its ${module.lessons.length} lessons, ${module.questionCount} bank questions and ${module.quizCount} quizzes (with students’ attempts) are deleted with it. This cannot be undone.`}
            pending={remove.isPending}
            onConfirm={() =>
              remove
                .mutateAsync({ userId: session.userId, courseId: course.id, moduleId: module.id })
                .then(() => toast.success(`Module “${module.title}” deleted.`))
                .catch((error: Error) => {
                  toast.error(`Could not delete the module: ${error.message}`);
                  throw error;
                })
            }
          />
        </div>
      )}
      {children}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" asChild>
          <Link
            to={editorPaths.newLesson(course.id, module.id)}
            aria-label={`Add a lesson to “${module.title}”`}
          >
            <Plus aria-hidden="true" />
            Add lesson
          </Link>
        </Button>
        <Button size="sm" variant="outline" asChild>
          <Link to={editorPaths.module(course.id, module.id)}>
            <ListChecks aria-hidden="true" />
            Questions and quizzes ({module.questionCount}, {module.quizCount})
            <span className="sr-only"> of “{module.title}”</span>
          </Link>
        </Button>
      </div>
    </div>
  );
}

function LessonRow({
  courseId,
  lesson,
  index,
  count,
  dragging,
  onMove,
  otherModules,
  onMoveToModule,
  onDragStart,
  onDragEnd,
  onDragOver,
  onDrop,
}: {
  courseId: string;
  lesson: EditorLesson;
  index: number;
  count: number;
  dragging: boolean;
  onMove: (to: number, direction: 'up' | 'down') => void;
  otherModules: EditorModule[];
  onMoveToModule: (moduleId: string) => void;
  onDragStart: (event: DragEvent) => void;
  onDragEnd: () => void;
  onDragOver: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
}) {
  const Icon = kindIcons[lesson.kind];
  return (
    <li
      onDragOver={onDragOver}
      onDrop={onDrop}
      className={cn(
        'flex flex-wrap items-center gap-2 rounded-md border bg-card px-2 py-1.5',
        dragging && 'opacity-50',
      )}
    >
      <Grip onDragStart={onDragStart} onDragEnd={onDragEnd} />
      <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
      <div className="min-w-0 flex-1">
        <Link
          to={editorPaths.lesson(courseId, lesson.id)}
          className="text-sm font-medium break-words text-primary underline-offset-4 hover:underline"
        >
          {lesson.title}
        </Link>
        <p className="text-xs text-muted-foreground">
          {kindLabels[lesson.kind]} · {lesson.estimatedMinutes} min
        </p>
      </div>
      {otherModules.length > 0 && (
        <NativeSelect
          id={moveToModuleId(lesson.id)}
          aria-label={`Move lesson “${lesson.title}” to module`}
          className="h-8 w-auto max-w-[12rem] shrink-0"
          value=""
          onChange={(event) => {
            if (event.target.value) onMoveToModule(event.target.value);
          }}
        >
          <option value="">Move to module…</option>
          {otherModules.map((m) => (
            <option key={m.id} value={m.id}>
              {m.title}
            </option>
          ))}
        </NativeSelect>
      )}
      <MoveButtons
        id={lesson.id}
        name={`lesson “${lesson.title}”`}
        index={index}
        count={count}
        onMove={onMove}
      />
    </li>
  );
}

function ModuleForm({
  courseId,
  moduleId,
  initial,
  onDone,
}: {
  courseId: string;
  moduleId?: string;
  initial: ModuleInput;
  onDone: () => void;
}) {
  const session = useAppSession();
  const save = useSaveModule();
  const [module, setModule] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = moduleSchema.safeParse(module);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(
      { userId: session.userId, courseId, moduleId, module: parsed.data },
      {
        onSuccess: () => {
          toast.success(moduleId ? 'Module saved.' : `Module “${parsed.data.title}” added.`);
          setModule(initial);
          onDone();
        },
        onError: (error) => {
          setErrors(saveErrors(error));
          toast.error(`Could not save the module: ${error.message}`);
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-3">
      <FormError errors={errors} />
      <Field label={moduleId ? 'Module title' : 'New module title'} error={errors.title}>
        {(props) => (
          <Input
            {...props}
            value={module.title}
            maxLength={200}
            onChange={(e) => setModule({ ...module, title: e.target.value })}
          />
        )}
      </Field>
      <Field label="Summary" error={errors.summary} description="One or two sentences; optional.">
        {(props) => (
          <Textarea
            {...props}
            rows={2}
            value={module.summary}
            onChange={(e) => setModule({ ...module, summary: e.target.value })}
          />
        )}
      </Field>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : moduleId ? 'Save module' : 'Add module'}
        </Button>
        {moduleId && (
          <Button type="button" size="sm" variant="outline" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

function AddModule({ courseId }: { courseId: string }) {
  return (
    <div className="rounded-lg border border-dashed p-3">
      <h3 className="mb-2 text-sm font-semibold">Add a module</h3>
      <ModuleForm
        courseId={courseId}
        initial={{ title: '', summary: '' }}
        onDone={() => undefined}
      />
    </div>
  );
}
