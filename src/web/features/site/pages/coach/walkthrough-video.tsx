import { useEffect, useRef, useState } from 'react';
import { coachVideo } from './coach-content';

/** Served from our origin (src/web/public, decision 0229); `npm run video:coach` rewrites them. */
const MEDIA = '/media/coach-walkthrough';

/**
 * The recorded walkthrough of a Study Session (decision 0227): the real video with captions, a
 * summary of each step and the full transcript for those who cannot watch. The first load fetches
 * none of it: `preload="none"`, and the poster and captions track are added only once the video
 * comes into view (browsers fetch both as soon as they are in the page).
 */
export function WalkthroughVideo() {
  const figure = useRef<HTMLElement>(null);
  const [nearViewport, setNearViewport] = useState(false);

  useEffect(() => {
    const element = figure.current;
    if (!element) return;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      setNearViewport(true);
      observer.disconnect();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <figure ref={figure} className="overflow-hidden rounded-2xl border bg-card shadow-xs">
      <video
        controls
        preload="none"
        poster={nearViewport ? `${MEDIA}/poster.jpg` : undefined}
        aria-label={coachVideo.caption}
        className="aspect-video w-full bg-primary"
      >
        <source src={`${MEDIA}/coach-walkthrough.mp4`} type="video/mp4" />
        <source src={`${MEDIA}/coach-walkthrough.webm`} type="video/webm" />
        {/* A default track is fetched as soon as it is in the page, even with preload="none". */}
        {nearViewport && (
          <track
            kind="captions"
            src={`${MEDIA}/captions.vtt`}
            srcLang="en"
            label="English"
            default
          />
        )}
      </video>
      <figcaption className="p-5 sm:p-6">
        <p className="font-medium text-foreground">{coachVideo.caption}</p>
        <p className="mt-4 text-sm font-medium text-foreground">{coachVideo.summaryTitle}</p>
        <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm leading-relaxed text-muted-foreground marker:text-foreground">
          {coachVideo.summary.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ol>
        <p className="mt-4 text-sm">
          <a
            href={`${MEDIA}/transcript.txt`}
            className="font-medium text-primary underline underline-offset-4"
          >
            {coachVideo.transcript}
          </a>
        </p>
      </figcaption>
    </figure>
  );
}
