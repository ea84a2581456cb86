/** Offers a file made or fetched in the browser as a download. */
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the object URL by now; a tick later it can go.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Offers text made in the browser as a file download. */
export function downloadText(filename: string, text: string, type: string): void {
  downloadBlob(filename, new Blob([text], { type }));
}
