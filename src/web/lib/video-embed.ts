/**
 * How a video lesson's address is shown: YouTube and Vimeo through their embed players
 * (YouTube's privacy-enhanced host), a video file in the browser's own player, anything else
 * as a link. Lessons only hold https addresses (the database checks it).
 */
export type VideoEmbed =
  { kind: 'iframe'; src: string } | { kind: 'file'; src: string } | { kind: 'link'; href: string };

const youtubeId = /^[A-Za-z0-9_-]{6,20}$/;

export function videoEmbed(address: string): VideoEmbed {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { kind: 'link', href: address };
  }
  if (url.protocol !== 'https:') return { kind: 'link', href: address };
  const host = url.hostname.replace(/^www\./, '');
  let id: string | null = null;
  if (host === 'youtu.be') id = url.pathname.slice(1);
  else if (host === 'youtube.com' || host === 'm.youtube.com' || host === 'youtube-nocookie.com') {
    id =
      url.pathname === '/watch'
        ? url.searchParams.get('v')
        : (url.pathname.match(/^\/(?:embed|shorts)\/([^/]+)/)?.[1] ?? null);
  }
  if (id && youtubeId.test(id)) {
    return { kind: 'iframe', src: `https://www.youtube-nocookie.com/embed/${id}` };
  }
  const vimeo = host === 'vimeo.com' ? url.pathname.match(/^\/(\d+)$/)?.[1] : undefined;
  if (vimeo) return { kind: 'iframe', src: `https://player.vimeo.com/video/${vimeo}` };
  if (/\.(mp4|webm|ogv|ogg)$/i.test(url.pathname)) return { kind: 'file', src: url.href };
  return { kind: 'link', href: url.href };
}
