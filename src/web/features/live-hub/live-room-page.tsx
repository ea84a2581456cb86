/**
 * A course's live room (issue 15, decision 0310): who is here with their status, the chat
 * (instructors remove messages and mute learners), the instructor's live question with its
 * results, and the raise-hand queue. Everything is read from the room's tables; the realtime
 * channel carries presence and tells the screen when to read again. New messages from others
 * are announced politely to screen readers.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Hand, MicOff, RefreshCw, Send, Trash2, Volume2 } from 'lucide-react';
import { toast } from 'sonner';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Notice } from '@/components/ui/notice';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { cn } from '@/lib/utils';
import {
  useHands,
  useLiveHeader,
  useLiveMessages,
  useMutes,
  useQuestionState,
  type LiveHand,
  type LiveMessage,
} from './api/get-live-room';
import { liveKeys } from './api/live-keys';
import {
  messageSchema,
  useHand,
  useMute,
  useRemoveMessage,
  useSendMessage,
} from './api/live-mutations';
import { LiveQuestionPanel } from './live-question';
import {
  presenceStatusLabels,
  useLiveChannel,
  type Connection,
  type PresenceStatus,
  type PresentPerson,
} from './use-live-channel';

const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

export function LiveRoomPage() {
  const session = useAppSession();
  const { courseId = '' } = useRouteParams();
  const header = useLiveHeader(session.userId, courseId);
  const back = { to: `/app/courses/${courseId}`, label: 'Back to the course' };

  if (header.isPending) {
    return (
      <AppPage title="Live room" back={back}>
        <LoadingBlock label="Opening the live room…" />
      </AppPage>
    );
  }
  if (header.isError) {
    return (
      <AppPage title="Live room" back={back}>
        <LoadError
          message={`Could not open the live room: ${header.error.message}`}
          onRetry={() => void header.refetch()}
        />
      </AppPage>
    );
  }
  if (!header.data || !(header.data.teaches || header.data.enrolled)) {
    return (
      <AppPage title="Live room" back={back}>
        <EmptyState>
          The live room is open to the course&rsquo;s enrolled students and its instructors. Enrol
          from the course page to join it.
        </EmptyState>
      </AppPage>
    );
  }
  return (
    <Room
      courseId={courseId}
      title={header.data.title}
      teaches={header.data.teaches}
      myName={header.data.myName}
      back={back}
    />
  );
}

function Room({
  courseId,
  title,
  teaches,
  myName,
  back,
}: {
  courseId: string;
  title: string;
  teaches: boolean;
  myName: string;
  back: { to: string; label: string };
}) {
  const session = useAppSession();
  const queryClient = useQueryClient();
  const userId = session.userId;
  const messages = useLiveMessages(userId, courseId, true);
  const hands = useHands(userId, courseId, true);
  const mutes = useMutes(userId, courseId, true);
  const question = useQuestionState(userId, courseId, true);
  const [status, setStatus] = useState<PresenceStatus>('here');
  const statusId = useId();
  const { people, connection } = useLiveChannel({
    userId,
    courseId,
    name: myName,
    role: teaches ? 'instructor' : 'learner',
    status,
    enabled: true,
  });
  const muted = !teaches && (mutes.data ?? []).some((m) => m.userId === userId);
  const refreshing = useIsFetching({ queryKey: liveKeys.room(userId, courseId) }) > 0;

  return (
    <AppPage
      wide
      title={`Live room: ${title}`}
      back={back}
      intro={
        teaches
          ? 'You teach this course: ask the room a question, take raised hands, remove messages and mute a student when needed.'
          : 'Chat with your class and instructors, answer the live question and raise your hand to speak.'
      }
      actions={
        <Button
          variant="outline"
          onClick={() =>
            void queryClient.invalidateQueries({ queryKey: liveKeys.room(userId, courseId) })
          }
          disabled={refreshing}
        >
          <RefreshCw aria-hidden="true" className={cn(refreshing && 'motion-safe:animate-spin')} />
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </Button>
      }
    >
      <ConnectionNotice connection={connection} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="grid min-w-0 content-start gap-6">
          <Chat
            courseId={courseId}
            teaches={teaches}
            muted={muted}
            messages={messages.data}
            loading={messages.isPending}
            error={messages.error}
            onRetry={() => void messages.refetch()}
            mutedIds={new Set((mutes.data ?? []).map((m) => m.userId))}
          />
          <LiveQuestionPanel
            courseId={courseId}
            teaches={teaches}
            state={question.data}
            loading={question.isPending}
            error={question.error}
            onRetry={() => void question.refetch()}
          />
        </div>
        <div className="grid content-start gap-6">
          <Section title="Who is here" id="who-is-here">
            <div className="mb-3 grid gap-1.5">
              <Label htmlFor={statusId}>Your status</Label>
              <NativeSelect
                id={statusId}
                value={status}
                onChange={(event) => setStatus(event.target.value as PresenceStatus)}
              >
                {(Object.keys(presenceStatusLabels) as PresenceStatus[]).map((key) => (
                  <option key={key} value={key}>
                    {presenceStatusLabels[key]}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <PeopleList people={people} connection={connection} />
          </Section>
          <HandQueue
            courseId={courseId}
            teaches={teaches}
            hands={hands.data}
            loading={hands.isPending}
            error={hands.error}
            onRetry={() => void hands.refetch()}
          />
          {teaches && (mutes.data ?? []).length > 0 && (
            <MutedList courseId={courseId} mutes={mutes.data ?? []} />
          )}
        </div>
      </div>
    </AppPage>
  );
}

function ConnectionNotice({ connection }: { connection: Connection }) {
  if (connection === 'live') {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <span aria-hidden="true" className="inline-block size-2 rounded-full bg-emerald-600" />
        Connected: who is here, new messages, the question and raised hands update as they happen.
      </p>
    );
  }
  return (
    <Notice tone="info">
      {connection === 'reconnecting'
        ? 'The connection dropped. Reconnecting… Missed messages are read again once it is back; Refresh reads them now.'
        : 'Connecting to the room… Refresh shows the latest messages, question and hands.'}
    </Notice>
  );
}

function PeopleList({ people, connection }: { people: PresentPerson[]; connection: Connection }) {
  if (connection !== 'live' && people.length === 0) {
    return <p className="text-sm text-muted-foreground">Connecting…</p>;
  }
  return (
    <ul className="grid gap-2" aria-label="People in the room">
      {people.map((person) => (
        <li key={person.userId} className="flex flex-wrap items-center justify-between gap-2">
          <span className="min-w-0 break-words">
            {person.name}
            {person.role === 'instructor' && (
              <Badge variant="secondary" className="ml-2">
                Instructor
              </Badge>
            )}
          </span>
          <span
            className={cn(
              'text-sm',
              person.status === 'question' ? 'font-medium text-primary' : 'text-muted-foreground',
            )}
          >
            {presenceStatusLabels[person.status]}
          </span>
        </li>
      ))}
    </ul>
  );
}

function Chat({
  courseId,
  teaches,
  muted,
  messages,
  loading,
  error,
  onRetry,
  mutedIds,
}: {
  courseId: string;
  teaches: boolean;
  muted: boolean;
  messages: LiveMessage[] | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  mutedIds: Set<string>;
}) {
  const session = useAppSession();
  const send = useSendMessage(session.userId, courseId);
  const [draft, setDraft] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const inputId = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const announcement = useAnnouncement(messages, session.userId);

  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages?.length]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = messageSchema.safeParse({ body: draft });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Check the message.');
      return;
    }
    setFieldError(null);
    send.mutate(parsed.data.body, {
      onSuccess: () => setDraft(''),
      onError: (failure) => setFieldError(failure.message),
    });
  }

  return (
    <Section title="Chat" id="live-chat">
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
      {loading ? (
        <LoadingBlock label="Loading the chat…" />
      ) : error ? (
        <LoadError message={`Could not load the chat: ${error.message}`} onRetry={onRetry} />
      ) : !messages || messages.length === 0 ? (
        <EmptyState>No messages yet. Say hello to the room below.</EmptyState>
      ) : (
        <ol
          ref={listRef}
          tabIndex={0}
          aria-label="Chat messages"
          className="grid max-h-[28rem] gap-3 overflow-y-auto rounded-md border p-3 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          {messages.map((message) => (
            <ChatMessage
              key={message.id}
              courseId={courseId}
              message={message}
              teaches={teaches}
              mine={message.userId === session.userId}
              authorMuted={mutedIds.has(message.userId)}
            />
          ))}
        </ol>
      )}
      {muted ? (
        <Notice tone="info" className="mt-4">
          An instructor has muted you in this room: you can read the chat, answer questions and
          raise your hand, but not post.
        </Notice>
      ) : (
        <form onSubmit={submit} noValidate className="mt-4 grid gap-2">
          <Label htmlFor={inputId}>Message</Label>
          <Textarea
            id={inputId}
            value={draft}
            rows={2}
            maxLength={2000}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              // Enter sends; Shift+Enter starts a new line.
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${inputId}-error` : `${inputId}-hint`}
          />
          {fieldError ? (
            <p id={`${inputId}-error`} className="text-sm text-destructive">
              {fieldError}
            </p>
          ) : (
            <p id={`${inputId}-hint`} className="text-sm text-muted-foreground">
              Enter sends; Shift+Enter starts a new line.
            </p>
          )}
          <div>
            <Button type="submit" disabled={send.isPending}>
              <Send aria-hidden="true" />
              {send.isPending ? 'Sending…' : 'Send'}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}

/**
 * The latest message from someone else, as a sentence for the polite live region: each new
 * arrival replaces the last, and nothing is said for the history loaded when the room opens.
 */
function useAnnouncement(messages: LiveMessage[] | undefined, userId: string): string {
  const seen = useRef<Set<string> | null>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    if (!messages) return;
    if (seen.current === null) {
      seen.current = new Set(messages.map((m) => m.id));
      return;
    }
    const fresh = messages.filter(
      (m) => !seen.current!.has(m.id) && m.userId !== userId && !m.removedAt,
    );
    for (const m of messages) seen.current.add(m.id);
    const last = fresh[fresh.length - 1];
    if (last) setText(`${last.authorName} says: ${last.body}`);
  }, [messages, userId]);
  return text;
}

function ChatMessage({
  courseId,
  message,
  teaches,
  mine,
  authorMuted,
}: {
  courseId: string;
  message: LiveMessage;
  teaches: boolean;
  mine: boolean;
  authorMuted: boolean;
}) {
  const session = useAppSession();
  const remove = useRemoveMessage(session.userId, courseId);
  const mute = useMute(session.userId, courseId);
  const removed = message.removedAt !== null;
  return (
    <li className="grid gap-1">
      <p className="text-sm">
        <span className={cn('font-semibold', message.fromInstructor && 'text-primary')}>
          {mine ? 'You' : message.authorName}
        </span>
        {message.fromInstructor && <span className="text-muted-foreground"> · Instructor</span>}{' '}
        {message.sample && (
          <Badge variant="outline" className="mr-1">
            Sample
          </Badge>
        )}
        <span className="text-muted-foreground">
          ·{' '}
          <time dateTime={message.createdAt}>{timeFormat.format(new Date(message.createdAt))}</time>
        </span>
      </p>
      {removed ? (
        <p className="text-sm text-muted-foreground italic">Removed by an instructor.</p>
      ) : (
        <p className="leading-6 break-words whitespace-pre-line">{message.body}</p>
      )}
      {teaches && !removed && (
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="ghost"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(message.id, {
                onSuccess: () => toast.success('Message removed.'),
                onError: (failure) => toast.error(failure.message),
              })
            }
          >
            <Trash2 aria-hidden="true" />
            Remove<span className="sr-only"> this message from {message.authorName}</span>
          </Button>
          {!message.fromInstructor && !mine && !authorMuted && (
            <Button
              size="sm"
              variant="ghost"
              disabled={mute.isPending}
              onClick={() =>
                mute.mutate(
                  { learnerId: message.userId, muted: true },
                  {
                    onSuccess: () => toast.success(`${message.authorName} is muted in this room.`),
                    onError: (failure) => toast.error(failure.message),
                  },
                )
              }
            >
              <MicOff aria-hidden="true" />
              Mute {message.authorName}
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

function MutedList({
  courseId,
  mutes,
}: {
  courseId: string;
  mutes: { userId: string; userName: string }[];
}) {
  const session = useAppSession();
  const mute = useMute(session.userId, courseId);
  return (
    <Section title="Muted" id="live-muted" description="They read the room but cannot post.">
      <ul className="grid gap-2">
        {mutes.map((m) => (
          <li key={m.userId} className="flex flex-wrap items-center justify-between gap-2">
            <span className="break-words">{m.userName}</span>
            <Button
              size="sm"
              variant="outline"
              disabled={mute.isPending}
              onClick={() =>
                mute.mutate(
                  { learnerId: m.userId, muted: false },
                  {
                    onSuccess: () => toast.success(`${m.userName} can post again.`),
                    onError: (failure) => toast.error(failure.message),
                  },
                )
              }
            >
              <Volume2 aria-hidden="true" />
              Unmute {m.userName}
            </Button>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function HandQueue({
  courseId,
  teaches,
  hands,
  loading,
  error,
  onRetry,
}: {
  courseId: string;
  teaches: boolean;
  hands: LiveHand[] | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
}) {
  const session = useAppSession();
  const hand = useHand(session.userId, courseId);
  const mineUp = (hands ?? []).some((h) => h.userId === session.userId);
  const place = (hands ?? []).findIndex((h) => h.userId === session.userId) + 1;

  function toggle(learnerId: string, raised: boolean, done: string) {
    hand.mutate(
      { learnerId, raised },
      { onSuccess: () => toast.success(done), onError: (failure) => toast.error(failure.message) },
    );
  }

  return (
    <Section title="Raised hands" id="live-hands">
      {!teaches && (
        <div className="mb-3 grid gap-2">
          <Button
            variant={mineUp ? 'outline' : 'default'}
            disabled={hand.isPending}
            aria-pressed={mineUp}
            onClick={() =>
              toggle(
                session.userId,
                !mineUp,
                mineUp
                  ? 'Your hand is down.'
                  : 'Your hand is up: an instructor will take you in turn.',
              )
            }
          >
            <Hand aria-hidden="true" />
            {mineUp ? 'Lower my hand' : 'Raise my hand'}
          </Button>
          {mineUp && (
            <p className="text-sm text-muted-foreground">You are number {place} in the queue.</p>
          )}
        </div>
      )}
      {loading ? (
        <LoadingBlock label="Loading the queue…" />
      ) : error ? (
        <LoadError message={`Could not load the queue: ${error.message}`} onRetry={onRetry} />
      ) : !hands || hands.length === 0 ? (
        <p className="text-sm text-muted-foreground">No hands are up.</p>
      ) : (
        <ol className="grid list-decimal gap-2 pl-5" aria-label="Queue of raised hands">
          {hands.map((h) => (
            <li key={h.userId}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="break-words">
                  {h.userId === session.userId ? 'You' : h.userName}
                </span>
                {teaches && (
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={hand.isPending}
                    onClick={() => toggle(h.userId, false, `${h.userName}’s hand is down.`)}
                  >
                    Take<span className="sr-only"> {h.userName}’s question and lower the hand</span>
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
