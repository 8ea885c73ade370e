export function DividerBlock() {
  return <hr class="kit-divider" />;
}
