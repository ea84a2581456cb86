/**
 * Flashcard statistics (decision 0162): cards by state, true retention, reviews per day for the
 * last 30 days and a 26-week calendar heatmap, for all decks or one; every chart has its figures
 * in words or in a table.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { AppPage, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { FigureChart } from '@/components/figure-chart';
import { SelectField } from '@/components/ui/field';
import { useAppSession } from '@/lib/app-session';
import { cn } from '@/lib/utils';
import { useDecks } from './api/decks';
import { useFlashcardStatistics, type FlashcardStatistics } from './api/statistics';
import { flashcardPaths } from './flashcard-paths';
import {
  addDays,
  everyDay,
  heatmapSummary,
  intensity,
  retentionPercent,
  weekColumns,
  type DayReviews,
  type RetentionCounts,
} from './review-statistics';

const dayLabel = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const formatDay = (day: string) => dayLabel.format(new Date(`${day}T00:00:00Z`));

export function StatisticsPage() {
  const { userId } = useAppSession();
  const decks = useDecks(userId);
  const [deckId, setDeckId] = useState('');
  const statistics = useFlashcardStatistics(userId, deckId || null);

  return (
    <AppPage
      title="Flashcard statistics"
      intro="How much you review and how much you remember, from your own review log."
      back={{ to: flashcardPaths.decks(), label: 'Flashcards' }}
      wide
    >
      <SelectField
        label="Decks"
        className="max-w-sm"
        value={deckId}
        onChange={(event) => setDeckId(event.target.value)}
      >
        <option value="">All decks</option>
        {decks.data?.map((deck) => (
          <option key={deck.id} value={deck.id}>
            {deck.name}
          </option>
        ))}
      </SelectField>
      {statistics.isPending ? (
        <LoadingBlock label="Loading your statistics…" />
      ) : statistics.isError ? (
        <LoadError
          message={`Could not load your statistics: ${statistics.error.message}`}
          onRetry={() => void statistics.refetch()}
        />
      ) : (
        <Figures statistics={statistics.data} />
      )}
    </AppPage>
  );
}

function Figures({ statistics }: { statistics: FlashcardStatistics }) {
  const days = everyDay(statistics.per_day, statistics.first_day, statistics.today);
  const lastMonth = days.slice(-30);
  const { cards } = statistics;
  return (
    <>
      <Section title="Cards" id="cards" description={`${cards.due_today} due today.`}>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          {(
            [
              ['New', cards.new],
              ['Learning', cards.learning],
              ['Review', cards.review],
              ['Relearning', cards.relearning],
              ['Suspended', cards.suspended],
            ] as const
          ).map(([label, count]) => (
            <div key={label} className="rounded-lg border p-3">
              <dt className="text-sm text-muted-foreground">{label}</dt>
              <dd className="text-2xl font-semibold tabular-nums">{count}</dd>
            </div>
          ))}
        </dl>
      </Section>
      <Section
        title="True retention"
        id="retention"
        description="Of your reviews of learned cards, the share you recalled (rated Hard or better)."
      >
        <dl className="grid gap-3 sm:grid-cols-2">
          <Retention label="Last 30 days" counts={statistics.retention.last_30_days} />
          <Retention label="All time" counts={statistics.retention.all_time} />
        </dl>
      </Section>
      <Section title="Reviews per day" id="per-day">
        <FigureChart
          title="Reviews in the last 30 days"
          unit=""
          points={lastMonth.map((d) => ({ label: formatDay(d.day), value: d.reviews }))}
          columns={['Day', 'Reviews', 'Forgotten (Again)']}
          rows={lastMonth
            .filter((d) => d.reviews > 0)
            .map((d) => [formatDay(d.day), d.reviews, d.again])}
        />
      </Section>
      <Section
        title="Calendar"
        id="calendar"
        description={`The last 26 weeks, days in your time zone (${statistics.time_zone}).`}
      >
        <Heatmap days={days} />
      </Section>
    </>
  );
}

function Retention({ label, counts }: { label: string; counts: RetentionCounts }) {
  const percent = retentionPercent(counts);
  return (
    <div className="rounded-lg border p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd>
        <span className="text-2xl font-semibold tabular-nums">
          {percent === null ? '—' : `${percent}%`}
        </span>{' '}
        <span className="text-sm text-muted-foreground">
          {counts.learned_reviews === 0
            ? 'no reviews of learned cards yet'
            : `${counts.recalled} of ${counts.learned_reviews} recalled`}
        </span>
      </dd>
    </div>
  );
}

const shades = [
  'bg-muted',
  'bg-chart-2/25',
  'bg-chart-2/50',
  'bg-chart-2/75',
  'bg-chart-2',
] as const;

function Heatmap({ days }: { days: DayReviews[] }) {
  const busiest = Math.max(0, ...days.map((d) => d.reviews));
  const weeks = weekColumns(days);
  const scroller = useRef<HTMLDivElement>(null);
  // On a narrow screen the latest weeks matter most: start scrolled to them.
  useLayoutEffect(() => {
    if (scroller.current) scroller.current.scrollLeft = scroller.current.scrollWidth;
  }, [days.length]);
  return (
    <figure className="m-0 grid gap-3">
      <figcaption className="text-sm">{heatmapSummary(days, formatDay)}</figcaption>
      <div ref={scroller} aria-hidden="true" className="overflow-x-auto pb-1">
        <div className="flex gap-[3px]">
          {weeks.map((week) => (
            <div key={week.find(Boolean)!.day} className="grid grid-rows-7 gap-[3px]">
              {week.map((day, i) =>
                day ? (
                  <div
                    key={day.day}
                    title={`${formatDay(day.day)}: ${day.reviews} ${day.reviews === 1 ? 'review' : 'reviews'}`}
                    className={cn(
                      'size-3 rounded-[2px] border border-foreground/10',
                      shades[intensity(day.reviews, busiest)],
                    )}
                  />
                ) : (
                  <div key={`pad-${i}`} className="size-3" />
                ),
              )}
            </div>
          ))}
        </div>
      </div>
      <p aria-hidden="true" className="flex items-center gap-1 text-xs text-muted-foreground">
        Fewer
        {shades.map((shade) => (
          <span
            key={shade}
            className={cn('size-3 rounded-[2px] border border-foreground/10', shade)}
          />
        ))}
        More · Monday at the top · from {formatDay(days[0]!.day)} to{' '}
        {formatDay(addDays(days[0]!.day, days.length - 1))}
      </p>
    </figure>
  );
}
