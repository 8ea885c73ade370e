/** The reject modal's metadata: which request, and where its message is. */
export interface RejectMeta {
  r: string;
  c?: string;
  m?: string;
}
