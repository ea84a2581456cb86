/**
 * Struggle insights for a course (decision 0222): which bank questions and which underlying
 * concepts learners struggle with in the study coach, as anonymous counts. A learner struggled
 * when the coach offered a refresher or judged the organization's struggle threshold of their
 * answers wrong or partly right; groups of fewer than five learners are never shown.
 */
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { useCourseOutline } from './api/get-course-outline';
import { useStruggleInsights, type StruggleGroup } from './api/get-struggle-insights';
import { teachingPaths } from './teaching-paths';

const percent = (part: number, whole: number) =>
  whole === 0 ? '0 %' : `${Math.round((100 * part) / whole)} %`;

export function StruggleInsightsPage() {
  const session = useAppSession();
  const { courseId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);
  const insights = useStruggleInsights(session.userId, courseId);
  const back = { to: teachingPaths.progress(courseId), label: 'Back to learner progress' };
  const title = outline.data ? `Struggle insights: ${outline.data.title}` : 'Struggle insights';

  return (
    <AppPage
      title={title}
      intro="Where learners struggle in the study coach, in numbers only: no names, no conversations."
      back={back}
      wide
    >
      {insights.isPending || outline.isPending ? (
        <LoadingBlock label="Loading the insights…" />
      ) : insights.isError ? (
        <LoadError
          message={`Could not load the insights: ${insights.error.message}`}
          onRetry={() => void insights.refetch()}
        />
      ) : (
        <>
          <p className="text-sm text-muted-foreground" data-testid="insights-rule">
            A learner counts as struggling with a question when the coach offered them its refresher
            or judged{' '}
            {insights.data.threshold === null
              ? "your organization's struggle threshold of"
              : `${insights.data.threshold} or more of`}{' '}
            their answers wrong or partly right. To keep learners anonymous, a question or concept
            fewer than 5 learners worked on is not shown
            {insights.data.hiddenGroups > 0
              ? ` (${insights.data.hiddenGroups} not shown for now).`
              : '.'}
          </p>
          {insights.data.questions.length === 0 ? (
            <EmptyState>
              Nothing to show yet: no question of this course has been worked on in the study coach
              by 5 or more learners.
            </EmptyState>
          ) : (
            <>
              <GroupTable
                id="insights-questions"
                title="Questions"
                caption="Bank questions, the most struggled-with first"
                first="Question"
                groups={insights.data.questions}
              />
              {insights.data.concepts.length > 0 && (
                <GroupTable
                  id="insights-concepts"
                  title="Concepts behind them"
                  caption="Prerequisite concepts, across their questions"
                  first="Concept"
                  groups={insights.data.concepts}
                />
              )}
            </>
          )}
        </>
      )}
    </AppPage>
  );
}

function GroupTable({
  id,
  title,
  caption,
  first,
  groups,
}: {
  id: string;
  title: string;
  caption: string;
  first: string;
  groups: StruggleGroup[];
}) {
  return (
    // min-w-0: a grid item grows to its table's width unless told it may shrink; the table then
    // scrolls in its own focusable region instead of widening the page on a phone.
    <Section id={id} title={title} className="min-w-0">
      <div
        className="overflow-x-auto focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        role="region"
        aria-label={caption}
        tabIndex={0}
      >
        <table className="w-full text-left text-xs sm:text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b text-muted-foreground">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">
                {first}
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Learners
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Struggled
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Refreshers offered
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Refreshers taken
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                Wrong or partial answers
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={`${g.kind}:${g.questionId ?? g.label}`} className="border-b last:border-0">
                <th scope="row" className="max-w-md py-2 pr-3 font-normal">
                  <span className="line-clamp-2">{g.label}</span>
                  {g.moduleTitle && (
                    <span className="block text-xs text-muted-foreground">{g.moduleTitle}</span>
                  )}
                </th>
                <td className="py-2 pr-3 text-right tabular-nums">{g.learners}</td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  {g.struggling} ({percent(g.struggling, g.learners)})
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{g.refresherOffers}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{g.refreshersTaken}</td>
                <td className="py-2 text-right tabular-nums">{g.wrongAnswers}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}
