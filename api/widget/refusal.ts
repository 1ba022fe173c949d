/**
 * The Italian reason a refused or failed load shows in the box, from the
 * API's error (code, message, Retry-After). The English message stays in
 * the response for developers (console, headers); the box speaks to the
 * page's visitors.
 */
import type { ApiFailure } from '../plugins/errors.js';

/** "30 secondi", "2 minuti", "3 ore". */
export function italianWait(seconds: number): string {
  if (seconds < 90) return `${seconds} ${seconds === 1 ? 'secondo' : 'secondi'}`;
  if (seconds < 5400) {
    const m = Math.round(seconds / 60);
    return `${m} minuti`;
  }
  const h = Math.round(seconds / 3600);
  return `${h} ${h === 1 ? 'ora' : 'ore'}`;
}

/** The parameter an INVALID_PARAMETER message names ('lat' in "Invalid parameter 'lat': ..."). */
function parameterNamed(message: string): string | undefined {
  return /parameter '([a-z_]+)'/.exec(message)?.[1];
}

export function refusalReason(f: ApiFailure): string {
  const retry = Number(f.headers['Retry-After']);
  const later = Number.isFinite(retry) && retry > 0 ? ` Riprova tra ${italianWait(retry)}.` : ' Riprova più tardi.';
  switch (f.code) {
    case 'MISSING_KEY':
      return 'Manca la chiave API del widget (parametro key).';
    case 'INVALID_KEY':
      return f.message === 'API key revoked' ? 'La chiave API del widget è stata revocata.' : 'La chiave API del widget non è valida.';
    case 'KEY_NOT_ALLOWED':
      return 'Questo sito non è autorizzato a usare la chiave del widget.';
    case 'PLAN_REQUIRED':
      return /San Marino/.test(f.message) ? 'Per San Marino serve il piano Developer.' : 'Il piano della chiave non basta per questo punto.';
    case 'QUOTA_EXCEEDED':
      return `Limite di richieste della chiave raggiunto.${later}`;
    case 'TOO_MANY_REQUESTS':
      return `Troppe richieste rifiutate.${later}`;
    case 'NOT_FOUND':
      return 'Nessun dato meteo per questo punto.';
    case 'DATA_NOT_AVAILABLE':
      return 'Dati meteo non ancora disponibili.' + later;
    case 'SERVICE_UNAVAILABLE':
      return 'Servizio momentaneamente non disponibile.' + later;
    case 'INVALID_PARAMETER': {
      const p = parameterNamed(f.message);
      if ((p === 'lat' || p === 'lon') && /between|must be/.test(f.message)) return "Il punto è fuori dall'area coperta (Italia).";
      if (p === 'lat' || p === 'lon') return /Missing/.test(f.message) ? 'Mancano le coordinate del punto (lat e lon).' : `Coordinata non valida (${p}).`;
      return p ? `Parametro non valido: ${p}.` : 'Richiesta non valida.';
    }
    default:
      return 'Errore interno del servizio meteo.' + later;
  }
}
