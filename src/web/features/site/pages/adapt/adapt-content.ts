/**
 * Words and facts of the LE Adapt overview, from the specification: inputs, the four-step
 * pipeline and its stages, the workspace tabs, the example flow, exports, roles and the
 * future ideas (shown as roadmap, never as available).
 */
import { brand } from '@common/brand';
import {
  Archive,
  AudioLines,
  ClipboardCheck,
  Code,
  FileCode,
  FileJson,
  FileText,
  FileType,
  Filter,
  Keyboard,
  LayoutList,
  ListTodo,
  PenLine,
  Search,
  ShieldCheck,
  UserCog,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import type { FeatureItem } from '../shared/types';

export const adaptHero = {
  eyebrow: brand.headerTitle,
  title: brand.adaptTool,
  tagline: 'Every course, accessible to every learner.',
  lead: `${brand.adaptTool} turns the course material you already have — or a course you describe in a prompt — into accessible, adaptive, neurodiverse-friendly lessons, quizzes and audio, reviewed by your staff and delivered to your learning management system. It runs on built-in engines that need no network, and on the language models an operator configures. Sign in as an instructor or organization admin and open ${brand.adaptTool} to try it.`,
  badges: ['No network needed, or your own models', 'SCORM, PDF, DOCX, TXT', 'Four-step pipeline'],
  primaryAction: { href: '#example-flow', label: 'See an example flow' },
  secondaryAction: { href: '#workspace', label: 'Tour the workspace' },
} as const;

export interface InputFormat {
  name: string;
  detail: string;
  icon: LucideIcon;
}

export const whatItDoes = {
  title: 'What it does',
  intro:
    'Bring content in any of the formats universities already use. Get back lessons that more students can read, follow and finish.',
  inputsTitle: 'You bring',
  inputs: [
    { name: 'SCORM package', detail: '.zip', icon: Archive },
    { name: 'PDF document', detail: '.pdf', icon: FileText },
    { name: 'Word document', detail: '.docx', icon: FileType },
    { name: 'Plain text', detail: '.txt', icon: FileText },
    { name: 'Course prompt', detail: 'typed description', icon: Keyboard },
  ] satisfies InputFormat[],
  outputsTitle: 'You get',
  outputs: [
    {
      name: 'Accessible',
      text: 'Clear structure and simplified language that more learners can follow.',
    },
    {
      name: 'Adaptive',
      text: 'Simplified, translated or adapted versions of the same lesson.',
    },
    {
      name: 'Neurodiverse-friendly',
      text: 'Lessons shaped for learners who read, focus and process information differently.',
    },
  ],
};

export interface PipelineStep {
  title: string;
  text: string;
  /** The stage the content reaches after this step. */
  stage: string;
  icon: LucideIcon;
}

export const pipeline = {
  title: 'The four-step pipeline',
  intro:
    'Every course goes through the same four steps. Each step hands the next a defined stage of the content, so you can see exactly where a course is.',
  steps: [
    {
      title: 'Text extraction',
      text: 'The text is pulled out of the SCORM package, PDF, DOCX or text file, or taken from your prompt.',
      stage: 'Extracted raw text',
      icon: FileText,
    },
    {
      title: 'Structured lessons, quizzes and objectives',
      text: 'The raw text is organised into lessons with learning objectives and quizzes.',
      stage: 'Structured lesson',
      icon: LayoutList,
    },
    {
      title: 'Simplification, translation or adaptation',
      text: 'The lesson is simplified, translated or adapted for the learners it is meant for.',
      stage: 'Accessible lesson',
      icon: Filter,
    },
    {
      title: 'Final bias and clarity review',
      text: 'A last pass checks the lesson for biased language and unclear writing before people review it.',
      stage: 'Final reviewed lesson',
      icon: ShieldCheck,
    },
  ] satisfies PipelineStep[],
};

export interface WorkspaceTab {
  value: string;
  label: string;
  icon: LucideIcon;
  title: string;
  text: string;
  points: string[];
}

export const workspace = {
  title: 'The workspace',
  intro: `${brand.adaptTool} is organised in four tabs that follow a course from upload to delivery.`,
  tabs: [
    {
      value: 'upload',
      label: 'Upload/Prompt',
      icon: Archive,
      title: 'Start from a file or a prompt',
      text: 'Create a new course by uploading existing material or by describing the course you need.',
      points: [
        'Upload a SCORM package (.zip), a PDF, a DOCX or a TXT file',
        'Or type a course prompt: the topic, the audience and what learners should be able to do',
        'Each upload or prompt becomes a job in the processing queue',
      ],
    },
    {
      value: 'queue',
      label: 'Processing Queue',
      icon: ListTodo,
      title: 'Follow every job through the pipeline',
      text: 'Queued courses run through the four pipeline steps in order.',
      points: [
        'See which stage each job has reached: extracted raw text, structured lesson, accessible lesson, final reviewed lesson',
        'Finished jobs move on to review',
      ],
    },
    {
      value: 'review',
      label: 'AI Output & Review',
      icon: ClipboardCheck,
      title: 'People decide what learners see',
      text: 'The result of the pipeline appears in Review, section by section.',
      points: [
        'Read each generated lesson, objective and quiz',
        'Accept a section as it is, or edit it',
        'Once its sections are accepted or edited, the course is ready to export',
      ],
    },
    {
      value: 'export',
      label: 'Export & Delivery',
      icon: Webhook,
      title: 'Export it, or send it straight to your LMS',
      text: 'Download the reviewed course in the format you need, or deliver it by webhook.',
      points: [
        'Export as SCORM JSON, Markdown, HTML or MP3 audio',
        'Send to LMS: deliver the course to a university or client learning system by webhook',
      ],
    },
  ] satisfies WorkspaceTab[],
};

export const exampleFlow = {
  title: 'Example flow',
  intro: 'How an educator turns an idea into a course in their university’s LMS.',
  steps: [
    { title: 'Create New Course', text: 'The educator clicks Create New Course.' },
    { title: 'Enter a prompt', text: 'They describe the course they need in a prompt.' },
    { title: 'Queued', text: 'The pipeline is queued and works through its four steps.' },
    { title: 'Review', text: 'The result appears in Review.' },
    { title: 'Accept or edit', text: 'The educator accepts or edits each section.' },
    {
      title: 'Export to SCORM and Send to LMS',
      text: 'They click Export to SCORM, then Send to LMS.',
    },
  ],
};

export const exports = {
  title: 'Exports and delivery',
  intro: 'One reviewed course, in the format each channel needs.',
  formats: [
    {
      title: 'SCORM JSON',
      text: 'For learning management systems that import SCORM course content.',
      icon: FileJson,
    },
    {
      title: 'Markdown',
      text: 'Plain, portable text for editing, version control and other tools.',
      icon: FileCode,
    },
    {
      title: 'HTML',
      text: 'Ready-to-publish web pages for a course site or intranet.',
      icon: Code,
    },
    {
      title: 'MP3 audio',
      text: 'Lessons as audio, for learners who prefer or need to listen.',
      icon: AudioLines,
    },
  ] satisfies FeatureItem[],
  delivery: {
    title: 'LMS delivery by webhook',
    text: 'Send to LMS delivers the finished course to a university or client learning system through a webhook, so it arrives where students already study.',
    icon: Webhook,
  },
};

export const adaptRoles = {
  title: 'Roles',
  intro: 'Three roles keep creation and approval separate.',
  items: [
    {
      title: 'Admin',
      text: `Sets up the ${brand.adaptTool} workspace: who works in it, in which role, and which learning systems courses are delivered to.`,
      icon: UserCog,
    },
    {
      title: 'Educator',
      text: 'Creates courses from uploads or prompts, reviews the output, accepts or edits sections, and exports or sends courses to the LMS.',
      icon: PenLine,
    },
    {
      title: 'Reviewer',
      text: 'Checks generated lessons in AI Output & Review and accepts or edits sections before anything is delivered.',
      icon: ClipboardCheck,
    },
  ] satisfies FeatureItem[],
};

export const roadmap = {
  title: 'Roadmap: future ideas',
  intro: 'Ideas we plan to build next. They are not part of the product yet.',
  tag: 'Roadmap',
  items: [
    {
      title: 'Searchable course archive',
      text: 'Find any course you have adapted before, by title or content.',
      icon: Search,
    },
    {
      title: 'Learner type selector',
      text: 'Choose the learners a course is for — ADHD, dyslexia, English language learners — and adapt for them.',
      icon: UserCog,
    },
    {
      title: 'Interactive quiz builder',
      text: 'Build and refine quizzes interactively instead of only reviewing generated ones.',
      icon: ListTodo,
    },
    {
      title: 'Model insights panel',
      text: 'See which AI model contributed what to each lesson.',
      icon: LayoutList,
    },
  ] satisfies FeatureItem[],
};
