/** A course's leaderboard: only learners who opted in appear; off by default (decision 0171). */
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { usePreferences } from '@/lib/user-preferences';
import { useGoalOptions } from './api/get-goal-options';
import { useLeaderboard } from './api/get-leaderboard';

export function LeaderboardSection({ userId }: { userId: string }) {
  const courses = useGoalOptions(userId);
  const preferences = usePreferences(userId);
  const [chosen, setChosen] = useState<string | null>(null);
  const courseId = chosen ?? courses.data?.[0]?.id ?? null;
  const board = useLeaderboard(userId, courseId);
  const selectId = useId();
  const optedIn = preferences.data?.preferences.leaderboardOptIn ?? false;

  return (
    <Section
      title="Course leaderboard"
      id="progress-leaderboard"
      description={
        <>
          Only learners who chose to join appear, with their display name and the XP they earned in
          the course. You are {optedIn ? 'on' : 'not on'} leaderboards;{' '}
          <Link to="/app/settings#leaderboard" className="underline underline-offset-4">
            change this in Settings
          </Link>
          .
        </>
      }
    >
      {courses.isPending ? (
        <LoadingBlock label="Loading your courses…" />
      ) : courses.isError ? (
        <LoadError
          message={`Could not load your courses: ${courses.error.message}`}
          onRetry={() => void courses.refetch()}
        />
      ) : courses.data.length === 0 ? (
        <EmptyState>Enrol in a course to see its leaderboard.</EmptyState>
      ) : (
        <div className="grid gap-3">
          <div className="grid max-w-sm gap-2">
            <Label htmlFor={selectId}>Course</Label>
            <NativeSelect
              id={selectId}
              value={courseId ?? ''}
              onChange={(e) => setChosen(e.target.value)}
            >
              {courses.data.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </NativeSelect>
          </div>
          {board.isPending ? (
            <LoadingBlock label="Loading the leaderboard…" />
          ) : board.isError ? (
            <LoadError
              message={`Could not load the leaderboard: ${board.error.message}`}
              onRetry={() => void board.refetch()}
            />
          ) : board.data.length === 0 ? (
            <EmptyState>Nobody in this course has joined the leaderboard yet.</EmptyState>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Rank</TableHead>
                  <TableHead>Learner</TableHead>
                  <TableHead className="text-right">XP in this course</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {board.data.map((row) => (
                  <TableRow
                    key={`${row.rank}-${row.displayName}`}
                    className={row.isMe ? 'font-semibold' : ''}
                  >
                    <TableCell>{row.rank}</TableCell>
                    <TableCell>
                      {row.displayName}
                      {row.isMe ? ' (you)' : ''}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{row.xp}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </div>
      )}
    </Section>
  );
}
