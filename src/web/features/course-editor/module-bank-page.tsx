/**
 * A module's question bank and quizzes: the questions the study coach and the quizzes share,
 * and the quizzes drawn from them. Each opens its own editor.
 */
import { Link } from 'react-router';
import { ClipboardList, Plus } from 'lucide-react';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { useCourseOutline } from './api/get-course-outline';
import { useModuleBank } from './api/get-module-bank';
import { CourseGate, Frame } from './course-gate';
import { editorPaths } from './editor-paths';
import { Missing, formatUpdated } from './editor-ui';
import { difficultyLabels, typeLabels } from './question-schema';

export function ModuleBankPage() {
  const session = useAppSession();
  const { courseId = '', moduleId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);
  const bank = useModuleBank(session.userId, courseId, moduleId);

  return (
    <CourseGate outline={outline} courseId={courseId}>
      {(course) => {
        const module = course.modules.find((m) => m.id === moduleId);
        if (!module) return <Missing what="module" courseId={courseId} />;
        return (
          <Frame courseId={course.id} title={`Questions and quizzes: ${module.title}`}>
            <p className="-mt-4 text-sm text-muted-foreground">{course.title}</p>
            {bank.isPending ? (
              <LoadingBlock label="Loading the question bank…" />
            ) : bank.isError ? (
              <LoadError
                message={`Could not load the question bank: ${bank.error.message}`}
                onRetry={() => void bank.refetch()}
              />
            ) : (
              <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
                <Section title={`Question bank (${bank.data.questions.length})`} id="bank">
                  <p className="mb-3 text-sm text-muted-foreground">
                    Each question carries its answer, hints, a worked example, misconceptions and a
                    prerequisite refresher; quizzes and the study coach draw on them.
                  </p>
                  <Button size="sm" asChild className="mb-3">
                    <Link to={editorPaths.newQuestion(course.id, module.id)}>
                      <Plus aria-hidden="true" />
                      New question
                    </Link>
                  </Button>
                  {bank.data.questions.length === 0 ? (
                    <EmptyState>
                      This module’s bank is empty. Add a question; a quiz can draw on it once it is
                      here.
                    </EmptyState>
                  ) : (
                    <ol className="grid gap-2">
                      {bank.data.questions.map((question, index) => (
                        <li key={question.id} className="rounded-md border bg-background p-3">
                          <p className="text-xs text-muted-foreground">Question {index + 1}</p>
                          <Link
                            to={editorPaths.question(course.id, question.id)}
                            className="line-clamp-3 text-sm font-medium break-words text-primary underline-offset-4 hover:underline"
                          >
                            {question.prompt}
                          </Link>
                          <div className="mt-1.5 flex flex-wrap gap-1.5">
                            <Badge variant="secondary">{typeLabels[question.type]}</Badge>
                            <Badge variant="outline">{difficultyLabels[question.difficulty]}</Badge>
                          </div>
                        </li>
                      ))}
                    </ol>
                  )}
                </Section>
                <Section title={`Quizzes (${bank.data.quizzes.length})`} id="quizzes">
                  <Button size="sm" asChild className="mb-3">
                    <Link to={editorPaths.newQuiz(course.id, module.id)}>
                      <ClipboardList aria-hidden="true" />
                      New quiz
                    </Link>
                  </Button>
                  {bank.data.quizzes.length === 0 ? (
                    <EmptyState>
                      {bank.data.questions.length === 0
                        ? 'No quiz yet. Add questions to the bank first, then make a quiz from them.'
                        : 'No quiz yet. Make one from the bank’s questions; students see it once it is published.'}
                    </EmptyState>
                  ) : (
                    <ul className="grid gap-2">
                      {bank.data.quizzes.map((quiz) => (
                        <li key={quiz.id} className="rounded-md border bg-background p-3">
                          <Link
                            to={editorPaths.quiz(course.id, quiz.id)}
                            className="text-sm font-medium text-primary underline-offset-4 hover:underline"
                          >
                            {quiz.title}
                          </Link>
                          <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                            <Badge variant={quiz.published ? 'default' : 'outline'}>
                              {quiz.published ? 'Published' : 'Draft'}
                            </Badge>
                            <span>
                              {quiz.questionCount === 1
                                ? '1 question'
                                : `${quiz.questionCount} questions`}
                            </span>
                            {quiz.dueAt && <span>· closes {formatUpdated(quiz.dueAt)}</span>}
                          </div>
                        </li>
                      ))}
                    </ul>
                  )}
                </Section>
              </div>
            )}
          </Frame>
        );
      }}
    </CourseGate>
  );
}
