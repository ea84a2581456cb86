/**
 * Words and facts of the home page's first screens (the rest: home-details-content.ts). Every statement here comes from the product
 * specification or the architecture; figures are the spec's own (no invented numbers).
 */
import { brand } from '@common/brand';
import { BrainCircuit, Building2, GraduationCap, ScrollText } from 'lucide-react';
import type { FeatureItem } from '../shared/types';

export const hero = {
  eyebrow: brand.company,
  title: brand.headerTitle,
  tagline: brand.tagline,
  lead: `A university learning platform for individual learners and whole institutions: a Socratic ${brand.coach}, ${brand.adaptTool} for accessible course content, and enterprise-grade security — in one web app.`,
  badges: ['Enterprise-Grade Architecture', 'Dual AI Integration', 'Modular Design'],
  primaryAction: { to: '/platform-overview', label: 'Explore the platform' },
  secondaryAction: { to: '/ai-study-coach', label: `Meet the ${brand.coach}` },
} as const;

/** Key facts beside the hero on wide screens; each one is stated in the specification. */
export const atAGlance = {
  title: 'At a glance',
  items: [
    { value: '2', label: 'environments: Personal mode and Organization mode' },
    { value: '2', label: `AI products: the ${brand.coach} and ${brand.adaptTool}` },
    { value: '4', label: 'standard roles, enforced by row-level security' },
    { value: '99.9%', label: 'monthly uptime commitment' },
    { value: '24/7', label: 'email support' },
  ],
};

export const executiveSummary = {
  intro: `${brand.product} is a learning platform built for universities. It serves individual learners in Personal mode and institutions in Organization mode, pairs an AI study coach that teaches with guiding questions with ${brand.adaptTool}, a second AI tool that makes course content accessible, and runs on a managed backend with row-level security.`,
  points: [
    {
      title: 'Who it serves',
      text: 'Students first, with instructors, organisation administrators and compliance officers. Faculty and institutions gain scalable tutoring; special education is supported with IEP documents and adaptive learning.',
      icon: GraduationCap,
    },
    {
      title: 'Two environments',
      text: 'Personal mode for individual learners. Organization mode for institutions, with central board management, global user oversight and aggregated analytics.',
      icon: Building2,
    },
    {
      title: 'Two AI products',
      text: `The ${brand.coach} asks instead of tells. ${brand.adaptTool} turns SCORM packages, PDF, DOCX and text into accessible, neurodiverse-friendly lessons.`,
      icon: BrainCircuit,
    },
    {
      title: 'Where it stands',
      text: `The August 2025 beta runs the learning app with the ${brand.coach} on its built-in engine, accounts with two-factor sign-in and the data room; ${brand.adaptTool} is planned. The release notes list what runs and what is planned.`,
      icon: ScrollText,
      link: { to: '/release-notes', label: 'Release notes' },
    },
  ] satisfies FeatureItem[],
};
