// A paid plan's two prices. Both are in the page; the plans section's billing
// switch shows one of them by CSS alone (.price-monthly / .price-annual under
// :has(:checked)), so the switch works before and without JavaScript. Rendered
// by the /subscription island and, as static HTML, by the /spa-owners landing.
interface Props {
  monthly: string;
  annual: string;
  annualSavings: string;
}

export default function PlanPrices({ monthly, annual, annualSavings }: Props) {
  return (
    <>
      <p className="price-monthly mt-2 text-ink">
        <span className="text-3xl font-semibold">{monthly}</span>
        <span className="text-ink-muted"> a month</span>
      </p>
      <p className="price-annual mt-2 text-ink">
        <span className="text-3xl font-semibold">{annual}</span>
        <span className="text-ink-muted"> a year (save {annualSavings})</span>
      </p>
    </>
  );
}
