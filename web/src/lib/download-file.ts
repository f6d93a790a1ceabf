/**
 * Hands text to the browser as a file download: a Blob behind an object URL, clicked through a
 * temporary <a download>. A UTF-8 byte-order mark leads CSV files so spreadsheets read accents
 * and dashes as UTF-8.
 */
export function downloadTextFile(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const blob = new Blob([type.startsWith('text/csv') ? '\uFEFF' : '', text], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The click has started the download; the URL is freed on the next turn.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
