/** A module's question bank and quizzes, as the bank screen and the quiz editor list them. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import type { QuestionType } from '../question-schema';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';

export interface BankQuestion {
  id: string;
  prompt: string;
  type: QuestionType;
  difficulty: 1 | 2 | 3;
}

export interface ModuleQuiz {
  id: string;
  title: string;
  published: boolean;
  dueAt: string | null;
  questionCount: number;
}

export interface ModuleBank {
  questions: BankQuestion[];
  quizzes: ModuleQuiz[];
}

export async function getModuleBank(courseId: string, moduleId: string): Promise<ModuleBank> {
  const client = await getSupabase();
  const [questions, quizzes] = await Promise.all([
    client
      .from('questions')
      .select('id, prompt, type, difficulty')
      .eq('course_id', courseId)
      .eq('module_id', moduleId)
      .order('created_at')
      .order('id'),
    client
      .from('assessments')
      .select('id, title, published, due_at, assessment_questions(question_id)')
      .eq('course_id', courseId)
      .eq('module_id', moduleId)
      .order('created_at')
      .order('id'),
  ]);
  if (questions.error) throw editorError(questions.error);
  if (quizzes.error) throw editorError(quizzes.error);
  return {
    questions: questions.data as BankQuestion[],
    quizzes: (
      quizzes.data as unknown as {
        id: string;
        title: string;
        published: boolean;
        due_at: string | null;
        assessment_questions: unknown[];
      }[]
    ).map((q) => ({
      id: q.id,
      title: q.title,
      published: q.published,
      dueAt: q.due_at,
      questionCount: q.assessment_questions.length,
    })),
  };
}

export function useModuleBank(userId: string, courseId: string, moduleId: string) {
  return useQuery({
    queryKey: editorKeys.bank(userId, courseId, moduleId),
    queryFn: () => getModuleBank(courseId, moduleId),
  });
}
