/**
 * A course's discussion: threads newest first with their replies, a form to start a thread,
 * a reply form per thread, and Delete on the user's own posts.
 */
import { useId, useState, type FormEvent } from 'react';
import { MessageSquareReply, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Pager } from '@/components/ui/pager';
import { Label } from '@/components/ui/label';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { cn } from '@/lib/utils';
import { postSchema, useCreateCoursePost } from './api/create-course-post';
import { useDeleteCoursePost } from './api/delete-course-post';
import { useCourse } from './api/get-course';
import {
  THREADS_PAGE_SIZE,
  useCoursePosts,
  type AuthorKind,
  type Post,
} from './api/get-course-posts';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { formatDateTime } from './learn-ui';
import { learnPaths } from './learn-paths';

const authorText: Record<AuthorKind, string> = {
  you: 'You',
  instructor: 'Instructor',
  classmate: 'Classmate',
};

export function DiscussionPage() {
  const session = useAppSession();
  const { courseId = '' } = useRouteParams();
  const course = useCourse(session.userId, courseId);
  const [page, setPage] = useState(0);
  const posts = useCoursePosts(session.userId, courseId, page);
  const back = { to: learnPaths.course(courseId), label: 'Back to the course' };
  const title = course.data ? `Discussion: ${course.data.title}` : 'Discussion';

  if (course.isSuccess && (!course.data || !course.data.enrolment)) {
    return (
      <AppPage title="Discussion" back={back}>
        <EmptyState>
          The discussion is open to the course’s students and instructors. Enrol from the course
          page to join it.
        </EmptyState>
      </AppPage>
    );
  }

  const total = posts.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / THREADS_PAGE_SIZE));
  return (
    <AppPage title={title} back={back}>
      <PostForm courseId={courseId} parentId={null} label="Start a new thread" submitText="Post" />
      {posts.isPending ? (
        <LoadingBlock label="Loading the discussion…" />
      ) : posts.isError ? (
        <LoadError
          message={`Could not load the discussion: ${posts.error.message}`}
          onRetry={() => void posts.refetch()}
        />
      ) : posts.data.threads.length === 0 ? (
        <EmptyState>No one has posted yet. Ask a question or share a thought above.</EmptyState>
      ) : (
        <>
          <ol className="grid gap-4" aria-label="Threads">
            {posts.data.threads.map((thread) => (
              <li key={thread.id} className="rounded-xl border bg-card p-4 shadow-sm">
                <PostBody courseId={courseId} post={thread} />
                {thread.replies.length > 0 && (
                  <ol className="mt-3 grid gap-3 border-l-2 pl-4" aria-label="Replies">
                    {thread.replies.map((reply) => (
                      <li key={reply.id}>
                        <PostBody courseId={courseId} post={reply} />
                      </li>
                    ))}
                  </ol>
                )}
                <ReplyArea courseId={courseId} threadId={thread.id} />
              </li>
            ))}
          </ol>
          <Pager
            label="Discussion pages"
            page={page}
            pages={pages}
            onPage={setPage}
            previousLabel="Newer"
            nextLabel="Older"
          />
        </>
      )}
    </AppPage>
  );
}

function PostBody({ courseId, post }: { courseId: string; post: Post }) {
  const session = useAppSession();
  const remove = useDeleteCoursePost();
  const [confirming, setConfirming] = useState(false);

  function confirmDelete() {
    remove.mutate(
      { userId: session.userId, courseId, postId: post.id },
      {
        onSuccess: () => toast.success('Post deleted.'),
        onError: (error) => {
          setConfirming(false);
          toast.error(`Could not delete: ${error.message}`);
        },
      },
    );
  }

  return (
    <article>
      <p className="text-sm">
        <span className={cn('font-semibold', post.author === 'instructor' && 'text-primary')}>
          {authorText[post.author]}
        </span>{' '}
        <span className="text-muted-foreground">· {formatDateTime(post.createdAt)}</span>
      </p>
      <p className="mt-1 leading-6 break-words whitespace-pre-line">{post.body}</p>
      {post.mine && (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          {confirming ? (
            <>
              <span className="text-sm">Delete this post?</span>
              <Button
                size="sm"
                variant="destructive"
                onClick={confirmDelete}
                disabled={remove.isPending}
              >
                {remove.isPending ? 'Deleting…' : 'Yes, delete'}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </>
          ) : (
            <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          )}
        </div>
      )}
    </article>
  );
}

function ReplyArea({ courseId, threadId }: { courseId: string; threadId: string }) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button size="sm" variant="outline" className="mt-3" onClick={() => setOpen(true)}>
        <MessageSquareReply aria-hidden="true" />
        Reply
      </Button>
    );
  }
  return (
    <div className="mt-3">
      <PostForm
        courseId={courseId}
        parentId={threadId}
        label="Your reply"
        submitText="Send reply"
        autoFocus
        onDone={() => setOpen(false)}
      />
    </div>
  );
}

function PostForm({
  courseId,
  parentId,
  label,
  submitText,
  autoFocus = false,
  onDone,
}: {
  courseId: string;
  parentId: string | null;
  label: string;
  submitText: string;
  autoFocus?: boolean;
  onDone?: () => void;
}) {
  const session = useAppSession();
  const create = useCreateCoursePost();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const errorId = `${id}-error`;

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = postSchema.safeParse({ body });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check your post.');
      return;
    }
    setError(null);
    create.mutate(
      { userId: session.userId, courseId, parentId, body: parsed.data.body },
      {
        onSuccess: () => {
          setBody('');
          toast.success(parentId ? 'Reply posted.' : 'Thread posted.');
          onDone?.();
        },
        onError: (postError) => setError(`Could not post: ${postError.message}`),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <textarea
        id={id}
        rows={parentId ? 3 : 4}
        value={body}
        // The reply box opens because the user asked for it, so typing can start at once.
        autoFocus={autoFocus}
        onChange={(event) => setBody(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className="w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive md:text-sm"
      />
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={create.isPending}>
          {create.isPending ? 'Posting…' : submitText}
        </Button>
        {onDone && (
          <Button type="button" size="sm" variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
