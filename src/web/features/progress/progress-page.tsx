/**
 * The learner's progress (issue 12, decisions 0171 and 0172): level and XP, the daily streak,
 * badges, goals with progress from real events, a course leaderboard for those who opted in,
 * and activity analytics with a table under each chart and a CSV of their own activity.
 */
import { Link } from 'react-router';
import { Download, Flame, Snowflake, Star } from 'lucide-react';
import { AppPage, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { useAppSession } from '@/lib/app-session';
import { FigureChart } from '@/components/figure-chart';
import { downloadCsv, toCsv } from '@/lib/csv';
import {
  activityCsvHeader,
  activityCsvRows,
  lessonsByWeek,
  minutesByWeekAndCourse,
  retentionByWeek,
} from './activity';
import { ACTIVITY_WEEKS, useActivity } from './api/get-activity';
import { useProgressSummary, type ProgressSummary } from './api/get-progress-summary';
import { GoalsSection } from './goals-section';
import { LeaderboardSection } from './leaderboard-section';
import { badgeTexts, levelRule, streakRule, xpRules } from './progress-texts';

const number = (n: number) => n.toLocaleString('en-GB');
const shortDate = (iso: string) =>
  new Date(`${iso.slice(0, 10)}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });

export function ProgressPage() {
  const { userId } = useAppSession();
  const summary = useProgressSummary(userId);
  return (
    <AppPage
      title="Progress"
      intro="Your level, streak, badges, goals and activity. Everything here comes from what you did in Lyceum."
      wide
    >
      {summary.isPending ? (
        <LoadingBlock label="Loading your progress…" />
      ) : summary.isError ? (
        <LoadError
          message={`Could not load your progress: ${summary.error.message}`}
          onRetry={() => void summary.refetch()}
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <LevelSection summary={summary.data} />
          <StreakSection summary={summary.data} />
        </div>
      )}
      <GoalsSection userId={userId} />
      {summary.data && <BadgesSection summary={summary.data} />}
      <ActivitySection userId={userId} />
      <LeaderboardSection userId={userId} />
    </AppPage>
  );
}

function LevelSection({ summary }: { summary: ProgressSummary }) {
  const span = summary.nextLevelXp - summary.levelXp;
  const into = summary.xp - summary.levelXp;
  const percent = span > 0 ? Math.round((into / span) * 100) : 0;
  return (
    <Section title="Level and XP" id="progress-level">
      <p className="flex items-baseline gap-3">
        <span className="font-serif text-4xl font-semibold text-primary">
          Level {summary.level}
        </span>
        <span className="text-muted-foreground">{number(summary.xp)} XP</span>
      </p>
      <div className="mt-3 grid gap-1">
        <div
          role="progressbar"
          aria-label={`Towards level ${summary.level + 1}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-3 overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
        </div>
        <p className="text-sm text-muted-foreground">
          {number(summary.nextLevelXp - summary.xp)} XP to level {summary.level + 1} (at{' '}
          {number(summary.nextLevelXp)} XP).
        </p>
      </div>
      <p className="mt-3 text-sm">{levelRule}</p>
      <h3 className="mt-3 text-sm font-medium">How you earn XP</h3>
      <ul className="mt-1 list-disc pl-5 text-sm text-muted-foreground">
        {xpRules.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
    </Section>
  );
}

function StreakSection({ summary }: { summary: ProgressSummary }) {
  return (
    <Section title="Daily streak" id="progress-streak">
      <p className="flex items-center gap-2">
        <Flame aria-hidden="true" className="size-8 text-warning" />
        <span className="font-serif text-4xl font-semibold text-primary">
          {summary.currentStreak}
        </span>
        <span className="text-muted-foreground">
          {summary.currentStreak === 1 ? 'day' : 'days'} in a row
        </span>
      </p>
      <ul className="mt-2 grid gap-1 text-sm">
        <li>
          {summary.activeToday
            ? 'You have studied today.'
            : 'Not studied yet today — study today to keep your streak going.'}
        </li>
        <li>Longest streak: {summary.longestStreak} days.</li>
        <li className="flex items-center gap-1.5">
          <Snowflake aria-hidden="true" className="size-4 text-info" />
          Streak freezes held: {summary.freezes} of 2.
        </li>
        <li className="text-muted-foreground">
          Days follow your time zone, {summary.timeZone} (today is {summary.today});{' '}
          <Link to="/app/settings" className="underline underline-offset-4">
            change it in Settings
          </Link>
          .
        </li>
      </ul>
      <p className="mt-3 text-sm text-muted-foreground">{streakRule}</p>
    </Section>
  );
}

function BadgesSection({ summary }: { summary: ProgressSummary }) {
  const earned = new Map(summary.badges.map((b) => [b.badge, b.earnedAt]));
  return (
    <Section
      title="Badges"
      id="progress-badges"
      description={`${earned.size} of ${Object.keys(badgeTexts).length} earned.`}
    >
      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {Object.entries(badgeTexts).map(([key, badge]) => {
          const at = earned.get(key);
          return (
            <li
              key={key}
              className={`flex items-start gap-2 rounded-lg border p-3 text-sm ${at ? 'bg-accent' : ''}`}
            >
              <Star
                aria-hidden="true"
                className={`mt-0.5 size-4 shrink-0 ${at ? 'fill-highlight text-highlight' : 'text-muted-foreground'}`}
              />
              <div>
                <p className="font-medium">
                  {badge.name}
                  <span className="sr-only">{at ? ', earned' : ', not earned yet'}</span>
                </p>
                <p className="text-muted-foreground">
                  {at ? `Earned ${shortDate(at)}.` : badge.how}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

function ActivitySection({ userId }: { userId: string }) {
  const activity = useActivity(userId);
  if (activity.isPending) {
    return (
      <Section title="Activity" id="progress-activity">
        <LoadingBlock label="Loading your activity…" />
      </Section>
    );
  }
  if (activity.isError) {
    return (
      <Section title="Activity" id="progress-activity">
        <LoadError
          message={`Could not load your activity: ${activity.error.message}`}
          onRetry={() => void activity.refetch()}
        />
      </Section>
    );
  }
  const rows = activity.data;
  const minutes = minutesByWeekAndCourse(rows.studyTime);
  const weeklyMinutes = new Map<string, number>();
  for (const m of minutes) weeklyMinutes.set(m.week, (weeklyMinutes.get(m.week) ?? 0) + m.minutes);
  const lessons = lessonsByWeek(rows.lessons);
  const retention = retentionByWeek(rows.reviews);

  function exportCsv() {
    downloadCsv(
      `lyceum-activity-${new Date().toISOString().slice(0, 10)}.csv`,
      toCsv(activityCsvHeader, activityCsvRows(rows)),
    );
  }

  return (
    <Section
      title="Activity"
      id="progress-activity"
      description={`The last ${ACTIVITY_WEEKS} weeks; weeks start on Monday.`}
    >
      <div className="mb-4">
        <Button type="button" variant="outline" size="sm" onClick={exportCsv}>
          <Download aria-hidden="true" />
          Download my activity (CSV)
        </Button>
      </div>
      <div className="grid gap-8 lg:grid-cols-2">
        <FigureChart
          title="Time on task per week"
          unit=" min"
          points={[...weeklyMinutes].map(([week, value]) => ({ label: shortDate(week), value }))}
          columns={['Week of', 'Course', 'Minutes']}
          rows={minutes.map((m) => [shortDate(m.week), m.course, m.minutes])}
        />
        <FigureChart
          title="Lessons completed per week"
          unit=""
          points={lessons.map((l) => ({ label: shortDate(l.week), value: l.lessons }))}
          columns={['Week of', 'Lessons']}
          rows={lessons.map((l) => [shortDate(l.week), l.lessons])}
        />
        <FigureChart
          title="Quiz scores over time"
          unit=" %"
          kind="line"
          max={100}
          points={rows.quizzes.map((q) => ({ label: shortDate(q.submittedAt), value: q.score }))}
          columns={['Date', 'Quiz', 'Course', 'Score']}
          rows={rows.quizzes.map((q) => [
            shortDate(q.submittedAt),
            q.quizTitle,
            q.courseTitle,
            `${q.score} %`,
          ])}
        />
        <FigureChart
          title="Flashcard retention per week"
          unit=" %"
          max={100}
          points={retention.map((r) => ({ label: shortDate(r.week), value: r.retention }))}
          columns={['Week of', 'Reviews', 'Of learned cards', 'Recalled', 'Retention']}
          rows={retention.map((r) => [
            shortDate(r.week),
            r.reviews,
            r.matureReviews,
            r.recalled,
            r.retention === null ? 'no learned cards yet' : `${r.retention} %`,
          ])}
        />
      </div>
      <p className="mt-4 text-sm text-muted-foreground">
        Retention is the share of reviews of cards you had already learned that you recalled (rated
        Hard, Good or Easy). Goal progress is listed under Goals.
      </p>
    </Section>
  );
}
