/**
 * Which feature renders each learning-app route (kind 'app' in src/common/routes.ts). The
 * shell composes the features here, so they never import each other; a new app screen adds
 * its route to the table and its page here (app-pages.test.ts checks the two agree).
 */
import type { ComponentType } from 'react';

export const appPages: Record<string, () => Promise<ComponentType>> = {
  '/app': () => import('@/features/learn/dashboard-page').then((m) => m.DashboardPage),
  '/app/courses': () =>
    import('@/features/learn/course-library-page').then((m) => m.CourseLibraryPage),
  '/app/library': () => import('@/features/library/library-page').then((m) => m.LibraryPage),
  '/app/courses/:courseId': () => import('@/features/learn/course-page').then((m) => m.CoursePage),
  '/app/courses/:courseId/lessons/:lessonId': () =>
    import('@/features/learn/lesson-page').then((m) => m.LessonPage),
  '/app/courses/:courseId/lessons/:lessonId/read': () =>
    import('@/features/reader/reader-page').then((m) => m.ReaderPage),
  '/app/courses/:courseId/quizzes/:assessmentId': () =>
    import('@/features/learn/quiz-page').then((m) => m.QuizPage),
  '/app/courses/:courseId/discussion': () =>
    import('@/features/learn/discussion-page').then((m) => m.DiscussionPage),
  '/app/courses/:courseId/live': () =>
    import('@/features/live-hub/live-room-page').then((m) => m.LiveRoomPage),
  '/app/coach': () => import('@/features/coach/coach-page').then((m) => m.CoachPage),
  '/app/progress': () => import('@/features/progress/progress-page').then((m) => m.ProgressPage),
  '/app/settings': () => import('@/features/settings/settings-page').then((m) => m.SettingsPage),
  '/app/course-editor': () =>
    import('@/features/course-editor/courses-page').then((m) => m.TaughtCoursesPage),
  '/app/course-editor/new': () =>
    import('@/features/course-editor/course-form-page').then((m) => m.NewCoursePage),
  '/app/course-editor/:courseId': () =>
    import('@/features/course-editor/course-editor-page').then((m) => m.CourseEditorPage),
  '/app/course-editor/:courseId/modules/:moduleId': () =>
    import('@/features/course-editor/module-bank-page').then((m) => m.ModuleBankPage),
  '/app/course-editor/:courseId/modules/:moduleId/lessons/new': () =>
    import('@/features/course-editor/lesson-editor-page').then((m) => m.NewLessonPage),
  '/app/course-editor/:courseId/lessons/:lessonId': () =>
    import('@/features/course-editor/lesson-editor-page').then((m) => m.EditLessonPage),
  '/app/course-editor/:courseId/modules/:moduleId/questions/new': () =>
    import('@/features/course-editor/question-editor-page').then((m) => m.NewQuestionPage),
  '/app/course-editor/:courseId/questions/:questionId': () =>
    import('@/features/course-editor/question-editor-page').then((m) => m.EditQuestionPage),
  '/app/course-editor/:courseId/modules/:moduleId/quizzes/new': () =>
    import('@/features/course-editor/quiz-editor-page').then((m) => m.NewQuizPage),
  '/app/course-editor/:courseId/quizzes/:assessmentId': () =>
    import('@/features/course-editor/quiz-editor-page').then((m) => m.EditQuizPage),
  '/app/owner/boards': () => import('@/features/org-owner/boards-page').then((m) => m.BoardsPage),
  '/app/owner/boards/:boardId': () =>
    import('@/features/org-owner/board-page').then((m) => m.BoardPage),
  '/app/owner/distribution': () =>
    import('@/features/org-owner/distribution-page').then((m) => m.DistributionPage),
  '/app/org/users': () => import('@/features/org-admin/users-page').then((m) => m.UsersPage),
  '/app/org/enrolments': () =>
    import('@/features/org-admin/enrolments-page').then((m) => m.EnrolmentsPage),
  '/app/org/api-keys': () =>
    import('@/features/org-admin/api-keys-page').then((m) => m.ApiKeysPage),
  '/app/org/sso': () => import('@/features/org-admin/sso-page').then((m) => m.SsoPage),
  '/app/owner/people': () => import('@/features/org-owner/people-page').then((m) => m.PeoplePage),
  '/app/org/analytics': () =>
    import('@/features/org-insights/analytics-page').then((m) => m.AnalyticsPage),
  '/app/org/thresholds': () =>
    import('@/features/org-insights/thresholds-page').then((m) => m.ThresholdsPage),
  '/app/org/reports': () =>
    import('@/features/org-insights/reports-page').then((m) => m.ReportsPage),
  '/app/org/reports/print': () =>
    import('@/features/org-insights/report-print-page').then((m) => m.ReportPrintPage),
  '/app/org/settings': () =>
    import('@/features/org-insights/settings-page').then((m) => m.SettingsPage),
  '/app/teaching': () => import('@/features/teaching/teaching-page').then((m) => m.TeachingPage),
  '/app/teaching/courses/:courseId': () =>
    import('@/features/teaching/course-progress-page').then((m) => m.CourseProgressPage),
  '/app/teaching/courses/:courseId/assignments': () =>
    import('@/features/teaching/assignments-page').then((m) => m.AssignmentsPage),
  '/app/teaching/courses/:courseId/insights': () =>
    import('@/features/teaching/struggle-insights-page').then((m) => m.StruggleInsightsPage),
  '/app/teaching/grading': () =>
    import('@/features/teaching/grading-queue-page').then((m) => m.GradingQueuePage),
  '/app/teaching/grading/:attemptId': () =>
    import('@/features/teaching/grade-attempt-page').then((m) => m.GradeAttemptPage),
  '/app/privacy': () => import('@/features/privacy/privacy-page').then((m) => m.PrivacyPage),
  '/app/plans': () => import('@/features/billing/plans-page').then((m) => m.PlansPage),
  '/app/admin/coupons': () => import('@/features/billing/coupons-page').then((m) => m.CouponsPage),
  '/app/adapt': () => import('@/features/adapt/adapt-page').then((m) => m.AdaptPage),
  '/app/adapt/:jobId': () => import('@/features/adapt/job-page').then((m) => m.AdaptJobPage),
  '/app/privacy-requests': () =>
    import('@/features/privacy/requests-queue-page').then((m) => m.RequestsQueuePage),
  '/app/flashcards': () => import('@/features/flashcards/decks-page').then((m) => m.DecksPage),
  '/app/flashcards/review': () =>
    import('@/features/flashcards/review-page').then((m) => m.ReviewPage),
  '/app/flashcards/statistics': () =>
    import('@/features/flashcards/statistics-page').then((m) => m.StatisticsPage),
  '/app/flashcards/new': () =>
    import('@/features/flashcards/new-card-page').then((m) => m.NewCardPage),
  '/app/flashcards/decks/:deckId': () =>
    import('@/features/flashcards/deck-page').then((m) => m.DeckPage),
  '/app/flashcards/decks/:deckId/review': () =>
    import('@/features/flashcards/review-page').then((m) => m.ReviewPage),
  '/app/offline': () => import('./offline/offline-study-page').then((m) => m.OfflineStudyPage),
  '/app/notes': () => import('@/features/notes/notes-page').then((m) => m.NotesPage),
  '/app/notes/new': () => import('@/features/notes/note-page').then((m) => m.NewNotePage),
  '/app/notes/:noteId': () => import('@/features/notes/note-page').then((m) => m.NotePage),
  '/app/iep': () => import('@/features/compliance/iep-page').then((m) => m.IepPage),
  '/app/compliance': () =>
    import('@/features/compliance/compliance-page').then((m) => m.CompliancePage),
};
