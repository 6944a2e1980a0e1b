// An image only its owner may see (a KYC photo, a deposit proof): fetched with the session token,
// which an <img src> cannot send, and shown from a blob URL that is released when it unmounts.
import { useEffect, useState } from 'react';
import { getToken } from '../session.ts';

export function PrivateImage({ path, alt, testId }: { path: string; alt: string; testId?: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    const token = getToken();
    void fetch(`/ipor-api${path}`, { headers: token ? { token } : {} })
      .then((res) => (res.ok ? res.blob() : null))
      .then((blob) => {
        if (!live || blob === null) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path]);
  return url ? (
    <img className="private-image" src={url} alt={alt} data-testid={testId} />
  ) : (
    <div className="private-image private-image--loading" role="img" aria-label={alt} />
  );
}
