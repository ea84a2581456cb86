/**
 * The script a SCO page runs to talk to the LMS's SCORM runtime: it finds the API object
 * (SCORM 1.2 `API`, SCORM 2004 `API_1484_11`) in the parent frames or the opener, starts the
 * attempt, keeps the reader's place in suspend data, and reports the quiz score and
 * pass/fail. Outside an LMS it finds no API and the page works on its own.
 */
export type ScormVersion = '1.2' | '2004';

/** Default pass mark (percent) when the LMS gives none. */
export const MASTERY_SCORE = 80;

export const scormRuntimeScript = `
window.LyceumScorm={start:function(version){
function find(name){var w=window;for(var i=0;i<12&&w;i++){try{if(w[name])return w[name];}catch(e){}if(w.parent===w)break;w=w.parent;}
try{w=window.opener;for(var j=0;j<12&&w;j++){if(w[name])return w[name];if(w.parent===w)break;w=w.parent;}}catch(e){}return null;}
var v12=version==='1.2',api=find(v12?'API':'API_1484_11');if(!api)return null;
var call=function(a,b){return v12?api['LMS'+a]:api[b];};
var get=function(k){return String(call('GetValue','GetValue').call(api,k)||'');};
var set=function(k,v){return call('SetValue','SetValue').call(api,k,String(v));};
var commit=function(){call('Commit','Commit').call(api,'');};
call('Initialize','Initialize').call(api,'');
var finished=false;
if(v12){var st=get('cmi.core.lesson_status');if(st===''||st==='not attempted')set('cmi.core.lesson_status','incomplete');}
else{var cs=get('cmi.completion_status');if(cs===''||cs==='unknown'||cs==='not attempted')set('cmi.completion_status','incomplete');}
commit();
function end(){if(finished)return;finished=true;set(v12?'cmi.core.exit':'cmi.exit','suspend');commit();call('Finish','Terminate').call(api,'');}
window.addEventListener('pagehide',end);window.addEventListener('beforeunload',end);
return{
load:function(){return get('cmi.suspend_data');},
save:function(text){set('cmi.suspend_data',text.slice(0,v12?4096:64000));commit();},
finish:function(score){
if(v12){var m=parseFloat(get('cmi.student_data.mastery_score'));if(isNaN(m))m=${MASTERY_SCORE};
set('cmi.core.score.min',0);set('cmi.core.score.max',100);set('cmi.core.score.raw',score);
set('cmi.core.lesson_status',score>=m?'passed':'failed');}
else{var p=parseFloat(get('cmi.scaled_passing_score'));if(isNaN(p))p=${MASTERY_SCORE / 100};
set('cmi.score.min',0);set('cmi.score.max',100);set('cmi.score.raw',score);set('cmi.score.scaled',score/100);
set('cmi.success_status',score/100>=p?'passed':'failed');set('cmi.completion_status','completed');}
commit();}
};}};
`;
