/**
 * One page of a course's discussion: threads newest first, each with its replies oldest
 * first. Authors are shown as "You", "Instructor" or "Classmate": learners may not read other
 * learners' profiles, by policy.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export const THREADS_PAGE_SIZE = 10;

export type AuthorKind = 'you' | 'instructor' | 'classmate';

export interface Post {
  id: string;
  author: AuthorKind;
  body: string;
  createdAt: string;
  mine: boolean;
}

export interface Thread extends Post {
  replies: Post[];
}

export interface PostsPage {
  threads: Thread[];
  total: number;
}

interface PostRow {
  id: string;
  author_id: string;
  parent_id: string | null;
  body: string;
  created_at: string;
}

export async function getCoursePosts(
  userId: string,
  courseId: string,
  page: number,
): Promise<PostsPage> {
  const client = await getSupabase();
  const from = page * THREADS_PAGE_SIZE;
  const [threads, instructors] = await Promise.all([
    client
      .from('course_posts')
      .select('id, author_id, parent_id, body, created_at', { count: 'exact' })
      .eq('course_id', courseId)
      .is('parent_id', null)
      .order('created_at', { ascending: false })
      .order('id')
      .range(from, from + THREADS_PAGE_SIZE - 1),
    client.from('course_instructors').select('user_id').eq('course_id', courseId),
  ]);
  if (threads.error) throw serviceError(threads.error);
  if (instructors.error) throw serviceError(instructors.error);
  const teachers = new Set((instructors.data as { user_id: string }[]).map((row) => row.user_id));
  const threadRows = threads.data as PostRow[];
  let replyRows: PostRow[] = [];
  if (threadRows.length > 0) {
    const replies = await client
      .from('course_posts')
      .select('id, author_id, parent_id, body, created_at')
      .eq('course_id', courseId)
      .in(
        'parent_id',
        threadRows.map((row) => row.id),
      )
      .order('created_at')
      .limit(1000);
    if (replies.error) throw serviceError(replies.error);
    replyRows = replies.data as PostRow[];
  }
  const toPost = (row: PostRow): Post => ({
    id: row.id,
    author:
      row.author_id === userId ? 'you' : teachers.has(row.author_id) ? 'instructor' : 'classmate',
    body: row.body,
    createdAt: row.created_at,
    mine: row.author_id === userId,
  });
  return {
    total: threads.count ?? threadRows.length,
    threads: threadRows.map((row) => ({
      ...toPost(row),
      replies: replyRows.filter((reply) => reply.parent_id === row.id).map(toPost),
    })),
  };
}

export function useCoursePosts(userId: string, courseId: string, page: number) {
  return useQuery({
    queryKey: [...learnKeys.posts(userId, courseId), page],
    queryFn: () => getCoursePosts(userId, courseId, page),
    placeholderData: keepPreviousData,
  });
}
