/**
 * The study coach (/app/coach, issue 13): pick a mode, a course and a topic, and talk. Replies
 * stream in and are rendered as safe Markdown; a polite live region reads each finished reply;
 * the coach's offer becomes two buttons; "I'm stuck" is one press away; the teaching history
 * says why the coach asked what it asked and which approaches it tried; past sessions resume.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Bot, Hourglass, LifeBuoy, RotateCcw, Send, UserRound } from 'lucide-react';
import { toast } from 'sonner';
import {
  APPROACH_LABELS,
  OFFER_BUTTONS,
  STUCK_MESSAGE,
  type ChatResponse,
  type CoachMode,
  type CoachOffer,
  type CoachState,
} from '@common/coach-chat';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { MarkdownDocument } from '@/components/markdown-document';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Notice } from '@/components/ui/notice';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import { cn } from '@/lib/utils';
import { coachKeys } from './api/coach-keys';
import { useCoachCourses, useCoachTopics } from './api/get-coach-courses';
import { getCoachSession, useCoachSession, type TeachingStep } from './api/get-coach-session';
import { useCoachSessions, type CoachSessionSummary } from './api/get-coach-sessions';
import { CoachRequestError, sendCoachMessage } from './api/send-coach-message';
import { OwnFiles } from './own-files';

const MODES: { value: CoachMode; label: string; description: string }[] = [
  {
    value: 'study',
    label: 'Study session',
    description: 'Guided practice: questions, hints and refreshers until it clicks.',
  },
  { value: 'quiz', label: 'Quiz', description: 'Test yourself, with Socratic feedback and hints.' },
  {
    value: 'general',
    label: 'General knowledge',
    description: 'A quick, sourced answer from your course material and your own files.',
  },
];

/** Why the coach took each approach, in the learner's words. */
const APPROACH_REASONS: Record<string, string> = {
  question: 'This question practises the topic you picked.',
  rephrase: 'The last answer missed, so I put the question another way.',
  hint: 'You were stuck or the answer missed, so I gave the next hint.',
  analogy: 'I linked the question to a simpler idea it builds on.',
  worked_example: 'A similar problem worked step by step shows the method.',
  sub_questions: 'Smaller steps make the question easier to climb.',
  misconception: 'Your answer looked like a common slip, so I named it.',
  mnemonic: 'A memory aid helps you keep the key ideas together.',
  refresher_offer: 'A few tries in a row missed, so I offered a refresher on the basics.',
  refresher: 'You chose to go back to the basics first.',
  refresher_question: 'Basic questions check the refresher before the original question.',
  confirmation: 'Your answer was right; I said why.',
  reveal: 'We tried every approach, so we walked through the answer.',
  quiz_feedback: 'In a quiz I give feedback and a hint before moving on.',
  study_session_offer: 'Several quiz answers missed, so I offered a study session.',
  knowledge_answer: 'You asked a question; I answered from your course material.',
};

const verdictText = {
  correct: 'right',
  partially_correct: 'partly right',
  incorrect: 'not right',
} as const;

interface ShownMessage {
  id: string;
  sender: 'learner' | 'coach';
  content: string;
  streaming?: boolean;
}

interface Conversation {
  sessionId: string | null;
  mode: CoachMode;
  state: CoachState;
  offer: CoachOffer | null;
  engine: string | null;
}

/** Markdown reduced to words for the screen-reader announcement. */
function spoken(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

let localIds = 0;
const localId = () => `local-${(localIds += 1)}`;

export function CoachPage() {
  const session = useAppSession();
  const queryClient = useQueryClient();
  const courses = useCoachCourses(session.userId);
  const [mode, setMode] = useState<CoachMode>('study');
  // null until the learner picks one: their latest enrolment.
  const [courseChoice, setCourseId] = useState<string | null>(null);
  const courseId = courseChoice ?? courses.data?.[0]?.id ?? '';
  const [topic, setTopic] = useState('');
  const topics = useCoachTopics(session.userId, courseId);
  const [conversation, setConversation] = useState<Conversation>({
    sessionId: null,
    mode: 'study',
    state: 'new_question',
    offer: null,
    engine: null,
  });
  const [messages, setMessages] = useState<ShownMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const ids = useId();

  useEffect(() => {
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    endRef.current?.scrollIntoView?.({ block: 'nearest', behavior: reduce ? 'auto' : 'smooth' });
  }, [messages]);

  function startOver(next: { mode?: CoachMode; courseId?: string; topic?: string }) {
    if (next.mode) setMode(next.mode);
    if (next.courseId !== undefined) {
      setCourseId(next.courseId);
      setTopic('');
    }
    if (next.topic !== undefined) setTopic(next.topic);
    setConversation({
      sessionId: null,
      mode: next.mode ?? mode,
      state: 'new_question',
      offer: null,
      engine: null,
    });
    setMessages([]);
    setError(null);
  }

  async function send(text: string) {
    const message = text.trim();
    if (!message || sending) return;
    if (conversation.mode !== 'general' && !courseId && !conversation.sessionId) {
      setError('Choose a course first.');
      return;
    }
    setSending(true);
    setError(null);
    const replyId = localId();
    setMessages((list) => [
      ...list,
      { id: localId(), sender: 'learner', content: message },
      { id: replyId, sender: 'coach', content: '', streaming: true },
    ]);
    setDraft('');
    try {
      const answer: ChatResponse = await sendCoachMessage(
        {
          mode: conversation.mode,
          message,
          ...(conversation.sessionId
            ? { session_id: conversation.sessionId }
            : { ...(courseId ? { course_id: courseId } : {}), ...(topic ? { topic } : {}) }),
        },
        (soFar) =>
          setMessages((list) => list.map((m) => (m.id === replyId ? { ...m, content: soFar } : m))),
      );
      setMessages((list) =>
        list.map((m) => (m.id === replyId ? { ...m, content: answer.reply, streaming: false } : m)),
      );
      setConversation({
        sessionId: answer.session_id,
        mode: answer.mode,
        state: answer.state,
        offer: answer.offer,
        engine: answer.engine?.label ?? null,
      });
      if (answer.mode !== mode) setMode(answer.mode);
      setAnnouncement(`Coach: ${spoken(answer.reply)}`);
      void queryClient.invalidateQueries({ queryKey: coachKeys.sessions(session.userId) });
      void queryClient.invalidateQueries({
        queryKey: coachKeys.session(session.userId, answer.session_id),
      });
    } catch (failure) {
      const text =
        failure instanceof CoachRequestError || failure instanceof Error
          ? failure.message
          : 'The coach could not answer.';
      setMessages((list) => list.filter((m) => m.id !== replyId));
      setDraft(message);
      setError(text);
      setAnnouncement(`The coach could not answer: ${text}`);
      if (failure instanceof CoachRequestError && failure.code === 'session_not_found') {
        startOver({});
      }
    } finally {
      setSending(false);
      inputRef.current?.focus();
    }
  }

  async function resume(summary: CoachSessionSummary) {
    try {
      const detail = await queryClient.fetchQuery({
        queryKey: coachKeys.session(session.userId, summary.id),
        queryFn: () => getCoachSession(summary.id),
      });
      setMode(summary.mode);
      setCourseId(summary.courseId ?? '');
      setTopic(summary.topic ?? '');
      const lastCoach = [...detail.messages].reverse().find((m) => m.sender === 'coach');
      setConversation({
        sessionId: summary.id,
        mode: summary.mode,
        state: summary.state,
        offer: summary.offer,
        engine: lastCoach?.engine ?? null,
      });
      setMessages(detail.messages.map((m) => ({ id: m.id, sender: m.sender, content: m.content })));
      setError(null);
      setAnnouncement(`Resumed the session ${summary.title}.`);
      inputRef.current?.focus();
    } catch (failure) {
      toast.error(`Could not open the session: ${(failure as Error).message}`);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void send(draft);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send(draft);
    }
  }

  const noCourses = courses.isSuccess && courses.data.length === 0;
  const awaiting = conversation.state === 'awaiting_answer' && conversation.mode !== 'general';
  const offer = conversation.offer;

  return (
    <AppPage
      title="Study coach"
      wide
      intro="A Socratic tutor: it asks guiding questions rather than giving answers away."
    >
      <div aria-live="polite" aria-atomic="true" className="sr-only" data-testid="coach-announcer">
        {announcement}
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="grid min-w-0 content-start gap-6">
          <Section
            id={`${ids}-setup`}
            title="What to study"
            description="Changing the mode, course or topic starts a new session."
          >
            <fieldset>
              <legend className="text-sm font-medium">Mode</legend>
              <div className="mt-2 grid gap-2 sm:grid-cols-3">
                {MODES.map((option) => (
                  <label
                    key={option.value}
                    className={cn(
                      'flex cursor-pointer gap-2 rounded-lg border p-3 text-sm has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
                      mode === option.value && 'border-primary bg-primary/5',
                    )}
                  >
                    <input
                      type="radio"
                      name={`${ids}-mode`}
                      value={option.value}
                      checked={mode === option.value}
                      onChange={() => startOver({ mode: option.value })}
                      className="mt-1 accent-primary"
                    />
                    <span>
                      <span className="font-medium">{option.label}</span>
                      <span className="block text-muted-foreground">{option.description}</span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="mt-4 grid gap-4 sm:grid-cols-2">
              <div className="grid gap-1.5">
                <Label htmlFor={`${ids}-course`}>Course</Label>
                <NativeSelect
                  id={`${ids}-course`}
                  value={courseId}
                  disabled={!courses.isSuccess || noCourses}
                  onChange={(event) => startOver({ courseId: event.target.value })}
                >
                  {mode === 'general' && <option value="">All my courses</option>}
                  {courses.data?.map((course) => (
                    <option key={course.id} value={course.id}>
                      {course.title}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={`${ids}-topic`}>Topic</Label>
                <NativeSelect
                  id={`${ids}-topic`}
                  value={topic}
                  disabled={mode === 'general' || !courseId}
                  onChange={(event) => startOver({ topic: event.target.value })}
                >
                  <option value="">Whole course</option>
                  {topics.data?.map((t) => (
                    <option key={t.value} value={t.value}>
                      {t.title}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            </div>
            {courses.isError && (
              <LoadError
                message={`Could not load your courses: ${courses.error.message}`}
                onRetry={() => void courses.refetch()}
              />
            )}
            {noCourses && (
              <div className="mt-4">
                <EmptyState>
                  You are not enrolled in any course yet. Enrol in one from the course library to
                  study it with the coach.
                </EmptyState>
              </div>
            )}
          </Section>

          <section
            aria-labelledby={`${ids}-chat`}
            className="rounded-xl border bg-card p-4 shadow-sm sm:p-5"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id={`${ids}-chat`} className="text-lg font-semibold">
                Conversation
              </h2>
              <div className="flex flex-wrap items-center gap-2">
                {awaiting && (
                  <Badge variant="secondary" data-testid="awaiting-answer">
                    <Hourglass aria-hidden="true" />
                    Awaiting your answer
                  </Badge>
                )}
                {conversation.sessionId && (
                  <Button size="sm" variant="ghost" onClick={() => startOver({})}>
                    <RotateCcw aria-hidden="true" />
                    New session
                  </Button>
                )}
              </div>
            </div>
            {conversation.engine && (
              <p className="mt-1 text-xs text-muted-foreground" data-testid="coach-engine">
                Answered by: {conversation.engine}
              </p>
            )}
            {messages.length === 0 ? (
              <p className="mt-3 text-sm text-muted-foreground">
                {mode === 'general'
                  ? 'Ask a question about your course material.'
                  : 'Say hello or “Let’s start” and the coach asks its first question.'}
              </p>
            ) : (
              <ol className="mt-3 grid gap-3" aria-label="Messages">
                {messages.map((m) => (
                  <li
                    key={m.id}
                    className={cn(
                      'flex gap-2',
                      m.sender === 'learner' && 'flex-row-reverse text-right',
                    )}
                  >
                    <span
                      className="mt-1 flex size-7 shrink-0 items-center justify-center rounded-full bg-muted"
                      aria-hidden="true"
                    >
                      {m.sender === 'coach' ? (
                        <Bot className="size-4" />
                      ) : (
                        <UserRound className="size-4" />
                      )}
                    </span>
                    <div
                      className={cn(
                        'min-w-0 max-w-[85%] rounded-lg px-3 py-2',
                        m.sender === 'coach' ? 'bg-muted/60' : 'bg-primary/10',
                      )}
                    >
                      <span className="sr-only">{m.sender === 'coach' ? 'Coach:' : 'You:'}</span>
                      {m.sender === 'coach' ? (
                        m.content ? (
                          <MarkdownDocument text={m.content} className="break-words text-left" />
                        ) : (
                          <span className="text-sm text-muted-foreground">Thinking…</span>
                        )
                      ) : (
                        <p className="text-sm break-words whitespace-pre-line text-left">
                          {m.content}
                        </p>
                      )}
                    </div>
                  </li>
                ))}
              </ol>
            )}
            <div ref={endRef} />

            {offer && !sending && (
              <div
                className="mt-4 flex flex-wrap gap-2"
                role="group"
                aria-label="The coach’s offer"
              >
                <Button onClick={() => void send(OFFER_BUTTONS[offer].accept)}>
                  {OFFER_BUTTONS[offer].accept}
                </Button>
                <Button variant="outline" onClick={() => void send(OFFER_BUTTONS[offer].decline)}>
                  {OFFER_BUTTONS[offer].decline}
                </Button>
              </div>
            )}

            {error && (
              <Notice tone="error" className="mt-4">
                {error}
              </Notice>
            )}

            <form className="mt-4 grid gap-2" onSubmit={onSubmit}>
              <Label htmlFor={`${ids}-message`}>
                {awaiting ? 'Your answer' : mode === 'general' ? 'Your question' : 'Your message'}
              </Label>
              <Textarea
                id={`${ids}-message`}
                ref={inputRef}
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                onKeyDown={onKeyDown}
                aria-describedby={`${ids}-message-help`}
                maxLength={8192}
                rows={2}
                disabled={noCourses && mode !== 'general'}
              />
              <p id={`${ids}-message-help`} className="text-xs text-muted-foreground">
                Enter sends; Shift+Enter starts a new line.
              </p>
              <div className="flex flex-wrap gap-2">
                <Button type="submit" disabled={sending || draft.trim() === ''}>
                  <Send aria-hidden="true" />
                  {sending ? 'Sending…' : 'Send'}
                </Button>
                {mode !== 'general' && (
                  <Button
                    type="button"
                    variant="outline"
                    disabled={sending || !awaiting}
                    onClick={() => void send(STUCK_MESSAGE)}
                  >
                    <LifeBuoy aria-hidden="true" />
                    {STUCK_MESSAGE}
                  </Button>
                )}
              </div>
            </form>
          </section>
        </div>

        <div className="grid min-w-0 content-start gap-6">
          <TeachingHistory userId={session.userId} sessionId={conversation.sessionId} />
          <PastSessions
            userId={session.userId}
            current={conversation.sessionId}
            onResume={(s) => void resume(s)}
          />
          <OwnFiles userId={session.userId} />
        </div>
      </div>
    </AppPage>
  );
}

function TeachingHistory({ userId, sessionId }: { userId: string; sessionId: string | null }) {
  const detail = useCoachSession(userId, sessionId);
  const steps: TeachingStep[] = detail.data?.history ?? [];
  const latest = steps.at(-1);
  const tried = steps.filter((s) => s.approach !== 'question' && s.approach !== 'confirmation');
  return (
    <Section
      id="coach-history"
      title="Teaching history"
      description="Why the coach asks what it asks, and what it has tried."
    >
      {!sessionId ? (
        <p className="text-sm text-muted-foreground">Nothing yet: start a conversation.</p>
      ) : detail.isPending ? (
        <LoadingBlock label="Loading the teaching history…" />
      ) : detail.isError ? (
        <LoadError
          message={`Could not load the history: ${detail.error.message}`}
          onRetry={() => void detail.refetch()}
        />
      ) : (
        <div className="grid gap-3 text-sm">
          {latest && (
            <div>
              <h3 className="font-medium">Why I’m asking this</h3>
              <p className="text-muted-foreground">
                {APPROACH_REASONS[latest.approach] ?? APPROACH_LABELS[latest.approach]}
              </p>
            </div>
          )}
          <div>
            <h3 className="font-medium">Approaches tried</h3>
            {tried.length === 0 ? (
              <p className="text-muted-foreground">None yet.</p>
            ) : (
              <ol className="mt-1 grid list-decimal gap-1 pl-5" aria-label="Approaches tried">
                {tried.map((step) => (
                  <li key={step.id}>
                    {APPROACH_LABELS[step.approach] ?? step.approach}
                    {step.verdict && (
                      <span className="text-muted-foreground">
                        {' '}
                        (your answer was {verdictText[step.verdict]})
                      </span>
                    )}
                  </li>
                ))}
              </ol>
            )}
          </div>
        </div>
      )}
    </Section>
  );
}

const modeLabel: Record<CoachMode, string> = {
  study: 'Study session',
  quiz: 'Quiz',
  general: 'General knowledge',
};
const whenFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

function PastSessions({
  userId,
  current,
  onResume,
}: {
  userId: string;
  current: string | null;
  onResume: (session: CoachSessionSummary) => void;
}) {
  const sessions = useCoachSessions(userId);
  return (
    <Section id="coach-sessions" title="Past sessions" description="Pick up where you left off.">
      {sessions.isPending ? (
        <LoadingBlock label="Loading your sessions…" />
      ) : sessions.isError ? (
        <LoadError
          message={`Could not load your sessions: ${sessions.error.message}`}
          onRetry={() => void sessions.refetch()}
        />
      ) : sessions.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No sessions yet.</p>
      ) : (
        <ul className="grid gap-2" aria-label="Past sessions">
          {sessions.data.map((s) => (
            <li key={s.id} className="flex items-start justify-between gap-2 text-sm">
              <div className="min-w-0">
                <p className="truncate font-medium">{s.title}</p>
                <p className="text-xs text-muted-foreground">
                  {modeLabel[s.mode]} · {whenFormat.format(new Date(s.updatedAt))}
                </p>
              </div>
              {s.id === current ? (
                <Badge variant="outline">Open</Badge>
              ) : (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => onResume(s)}
                  aria-label={`Resume ${s.title}, ${modeLabel[s.mode]}`}
                >
                  Resume
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
